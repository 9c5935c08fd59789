# cmake -DINPUT=file -DOUTPUT=file.c -DNAME=symbol -P embed.cmake: a binary file as a C array.
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR size "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n" bytes "${bytes}")
file(WRITE ${OUTPUT} "/* Embedded from a build output; do not edit. */\n#include <stddef.h>\n"
  "const unsigned char ${NAME}[] = {\n${bytes}0};\nconst size_t ${NAME}_size = ${size};\n")
