# generated/ is committed, so a build needs no Python. When Python 3 with Jinja2 and PyYAML is
# available (CGN_CODEGEN=AUTO or ON), a spec or template edit regenerates it during the build.
set(CGN_CODEGEN_SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/codegen/generate.py)
set(CGN_CODEGEN_ENABLED FALSE)
if(NOT CGN_CODEGEN STREQUAL "OFF")
  find_package(Python3 COMPONENTS Interpreter)
  if(Python3_FOUND)
    execute_process(COMMAND ${Python3_EXECUTABLE} -c "import jinja2, yaml"
      RESULT_VARIABLE cgn_py_rc OUTPUT_QUIET ERROR_QUIET)
    if(cgn_py_rc EQUAL 0)
      set(CGN_CODEGEN_ENABLED TRUE)
    endif()
  endif()
  if(CGN_CODEGEN STREQUAL "ON" AND NOT CGN_CODEGEN_ENABLED)
    message(FATAL_ERROR "CGN_CODEGEN=ON needs Python 3 with Jinja2 and PyYAML (Debian: python3-jinja2 python3-yaml)")
  endif()
endif()

file(GLOB cgn_spec_files CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/spec/*.yaml)

if(CGN_CODEGEN_ENABLED)
  execute_process(COMMAND ${Python3_EXECUTABLE} ${CGN_CODEGEN_SCRIPT} --print-outputs
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    OUTPUT_VARIABLE cgn_outputs RESULT_VARIABLE cgn_rc ERROR_VARIABLE cgn_err)
  execute_process(COMMAND ${Python3_EXECUTABLE} ${CGN_CODEGEN_SCRIPT} --print-deps
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    OUTPUT_VARIABLE cgn_deps RESULT_VARIABLE cgn_rc2 ERROR_VARIABLE cgn_err2)
  if(NOT cgn_rc EQUAL 0 OR NOT cgn_rc2 EQUAL 0)
    message(FATAL_ERROR "codegen failed:\n${cgn_err}${cgn_err2}")
  endif()
  string(STRIP "${cgn_outputs}" cgn_outputs)
  string(STRIP "${cgn_deps}" cgn_deps)
  string(REPLACE "\n" ";" cgn_outputs "${cgn_outputs}")
  string(REPLACE "\n" ";" cgn_deps "${cgn_deps}")
  list(TRANSFORM cgn_outputs PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
  list(TRANSFORM cgn_deps PREPEND ${CMAKE_CURRENT_SOURCE_DIR}/)
  # A new spec or template file changes the output list: reconfigure.
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${cgn_deps})
  set(cgn_stamp ${CMAKE_CURRENT_BINARY_DIR}/codegen.stamp)
  add_custom_command(OUTPUT ${cgn_stamp}
    BYPRODUCTS ${cgn_outputs}
    COMMAND ${Python3_EXECUTABLE} ${CGN_CODEGEN_SCRIPT} --spec-dir spec --out generated
    COMMAND ${CMAKE_COMMAND} -E touch ${cgn_stamp}
    DEPENDS ${cgn_deps}
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    COMMENT "Generating generated/ from spec/"
    VERBATIM)
  add_custom_target(cgn_generate DEPENDS ${cgn_stamp})
  set(CGN_GENERATED_ALL ${cgn_outputs})
else()
  file(GLOB_RECURSE CGN_GENERATED_ALL CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/generated/*)
endif()

set(CGN_GENERATED_SOURCES ${CGN_GENERATED_ALL})
list(FILTER CGN_GENERATED_SOURCES INCLUDE REGEX "/generated/src/.*\\.c$")
set(CGN_GENERATED_TEST_SOURCES ${CGN_GENERATED_ALL})
list(FILTER CGN_GENERATED_TEST_SOURCES INCLUDE REGEX "/generated/tests/.*\\.c$")
