#!/usr/bin/env bash
# Each public header compiles on its own, warning-free: include/accelmath/*.h and detail/*.h as
# C++20, and the C ABI header also as C11, each in its own translation unit (a header that leans on
# another include, or warns in a user's stricter build, fails here). The GPU backend's headers need
# CUDA: cuda.h compiles as host C++ with CUDA's include directory, cuda_atomic.h as CUDA with nvcc;
# both are skipped (and said so) when no nvcc is given.
# Usage: check_headers.sh <include dir> <C++ compiler> <C compiler> [nvcc]
set -euo pipefail
include_dir=$1 cxx=$2 cc=$3 nvcc=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

flags=(-Wall -Wextra -Werror -pedantic -I"$include_dir")
status=0
for header in "$include_dir"/accelmath/*.h "$include_dir"/accelmath/detail/*.h; do
  name=${header#"$include_dir"/}
  file=$tmp/$(basename "$header")
  printf '#include <%s>\n' "$name" > "$file.cc"
  case $name in
    accelmath/cuda.h)
      if [ -z "$nvcc" ]; then echo "skipped (no nvcc): $name"; continue; fi
      "$cxx" -std=c++20 "${flags[@]}" -I"$(dirname "$nvcc")/../include" -c "$file.cc" -o "$file.o" \
        || { echo "FAIL: $name as C++20 with CUDA's headers"; status=1; } ;;
    accelmath/cuda_atomic.h)
      if [ -z "$nvcc" ]; then echo "skipped (no nvcc): $name"; continue; fi
      cp "$file.cc" "$file.cu"
      "$nvcc" -std=c++20 --expt-relaxed-constexpr -Werror all-warnings -Xcompiler -Wall,-Wextra -I"$include_dir" \
        -arch=sm_90 -c "$file.cu" -o "$file.o" || { echo "FAIL: $name as CUDA C++20"; status=1; } ;;
    *)
      "$cxx" -std=c++20 "${flags[@]}" -c "$file.cc" -o "$file.o" || { echo "FAIL: $name as C++20"; status=1; } ;;
  esac
done
printf '#include <accelmath/c_api.h>\n' > "$tmp/c_api.c"
if ! "$cc" -std=c11 "${flags[@]}" -c "$tmp/c_api.c" -o "$tmp/c_api.o"; then
  echo "FAIL: accelmath/c_api.h as C11"; status=1
fi
[ "$status" -eq 0 ] && echo "public headers: ok"
exit "$status"
