#!/usr/bin/env bash
# Each public header compiles on its own, warning-free: include/accelmath/*.h as C++20, and the C
# ABI header also as C11, each in its own translation unit (a header that leans on another
# include, or warns in a user's stricter build, fails here).
# Usage: check_headers.sh <include dir> <C++ compiler> <C compiler>
set -euo pipefail
include_dir=$1 cxx=$2 cc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

flags=(-Wall -Wextra -Werror -pedantic -I"$include_dir")
status=0
for header in "$include_dir"/accelmath/*.h; do
  name=$(basename "$header")
  printf '#include <accelmath/%s>\n' "$name" > "$tmp/$name.cc"
  if ! "$cxx" -std=c++20 "${flags[@]}" -c "$tmp/$name.cc" -o "$tmp/$name.o"; then
    echo "FAIL: accelmath/$name as C++20"; status=1
  fi
done
printf '#include <accelmath/c_api.h>\n' > "$tmp/c_api.c"
if ! "$cc" -std=c11 "${flags[@]}" -c "$tmp/c_api.c" -o "$tmp/c_api.o"; then
  echo "FAIL: accelmath/c_api.h as C11"; status=1
fi
[ "$status" -eq 0 ] && echo "public headers: ok"
exit "$status"
