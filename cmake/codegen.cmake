# generated/ is committed, so a build needs no Python. When Python 3 with Jinja2 and PyYAML is
# available (CGN_CODEGEN=AUTO or ON), a spec or template edit regenerates it during the build.
#
# One interpreter, chosen and checked here, runs the generator and the codegen tests:
# -DPython3_EXECUTABLE=... when given (then only that one); otherwise Debian's /usr/bin/python3,
# the one whose python3-jinja2 and python3-yaml tools/deps installs, before the first python3
# that FindPython3 finds (on PATH that may be a pyenv or venv interpreter with other modules).
set(CGN_CODEGEN_SCRIPT ${CMAKE_CURRENT_SOURCE_DIR}/codegen/generate.py)
set(CGN_CODEGEN_ENABLED FALSE)
if(NOT CGN_CODEGEN MATCHES "^(ON|OFF|AUTO)$")
  message(FATAL_ERROR "CGN_CODEGEN is '${CGN_CODEGEN}'; it must be ON, OFF or AUTO")
endif()
if(CGN_CODEGEN STREQUAL "OFF")
  message(STATUS "cgn codegen: off (CGN_CODEGEN=OFF); building the committed generated/ files")
else()
  if(Python3_EXECUTABLE)
    set(cgn_py_candidates ${Python3_EXECUTABLE})
  else()
    find_package(Python3 COMPONENTS Interpreter QUIET)
    set(cgn_py_candidates /usr/bin/python3 ${Python3_EXECUTABLE})
    list(REMOVE_DUPLICATES cgn_py_candidates)
  endif()
  set(cgn_py_rejected "")
  foreach(cgn_py IN LISTS cgn_py_candidates)
    if(NOT EXISTS ${cgn_py})
      list(APPEND cgn_py_rejected "${cgn_py}: not found")
      continue()
    endif()
    # Prints what is missing (or the module versions) and fails when something is.
    execute_process(COMMAND ${cgn_py} -c [=[
import importlib, sys
missing, found = [], []
for dist, mod in (("Jinja2", "jinja2"), ("PyYAML", "yaml")):
    try:
        found.append("%s %s" % (dist, getattr(importlib.import_module(mod), "__version__", "?")))
    except ImportError:
        missing.append(dist)
print(("missing " + ", ".join(missing)) if missing else ", ".join(found), end="")
sys.exit(1 if missing else 0)
]=]
      RESULT_VARIABLE cgn_py_rc OUTPUT_VARIABLE cgn_py_out ERROR_QUIET)
    if(cgn_py_rc EQUAL 0)
      set(CGN_PYTHON ${cgn_py})
      set(CGN_CODEGEN_ENABLED TRUE)
      break()
    endif()
    if(NOT cgn_py_out)
      set(cgn_py_out "does not run as Python 3")
    endif()
    list(APPEND cgn_py_rejected "${cgn_py}: ${cgn_py_out}")
  endforeach()
  if(NOT cgn_py_candidates)
    list(APPEND cgn_py_rejected "no python3 found")
  endif()
  list(JOIN cgn_py_rejected "; " cgn_py_rejected)
  if(CGN_CODEGEN_ENABLED)
    # tests/ runs the codegen tests with ${Python3_EXECUTABLE}: the same interpreter.
    set(Python3_EXECUTABLE ${CGN_PYTHON})
    message(STATUS "cgn codegen: ${CGN_PYTHON} (${cgn_py_out})")
  elseif(CGN_CODEGEN STREQUAL "ON")
    message(FATAL_ERROR "CGN_CODEGEN=ON needs Python 3 with Jinja2 and PyYAML: ${cgn_py_rejected}.\n"
      "Install them (on Debian, tools/deps build installs python3-jinja2 and python3-yaml), name an "
      "interpreter that has them with -DPython3_EXECUTABLE=..., or use -DCGN_CODEGEN=OFF.")
  else()
    message(NOTICE "cgn codegen: no Python 3 with Jinja2 and PyYAML (${cgn_py_rejected}); "
      "building the committed generated/ files, so spec/ edits are not picked up")
  endif()
endif()

file(GLOB cgn_spec_files CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/spec/*.yaml)

if(CGN_CODEGEN_ENABLED)
  execute_process(COMMAND ${CGN_PYTHON} ${CGN_CODEGEN_SCRIPT} --print-outputs
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    OUTPUT_VARIABLE cgn_outputs RESULT_VARIABLE cgn_rc ERROR_VARIABLE cgn_err)
  execute_process(COMMAND ${CGN_PYTHON} ${CGN_CODEGEN_SCRIPT} --print-deps
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
    COMMAND ${CGN_PYTHON} ${CGN_CODEGEN_SCRIPT} --spec-dir spec --out generated
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
