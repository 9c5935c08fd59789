#!/usr/bin/env bash
# An application using an installed cgn through pkg-config and a plain compiler invocation:
# PKG_CONFIG_PATH=<cgn prefix>/lib/pkgconfig build.sh <output>. The rpath lets it run in place.
set -euo pipefail
here=$(dirname "$0")
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -o "$1" "$here/../consumer.c" \
  $(pkg-config --cflags --libs cgn) -Wl,-rpath,"$(pkg-config --variable=libdir cgn)"
