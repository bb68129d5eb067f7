#!/usr/bin/env bash
# Puts Intel MKL's runtime libraries where build/bench_math looks for its optional mkl_ha anchor
# (MKL VM, loaded at run time with dlopen). Nothing in the build, the tests or CI needs MKL or runs
# this script; bench_math simply skips the anchor without it.
#
#   bench/fetch_mkl.sh [DIR]                      DIR defaults to build/mkl (next to build/bench_math)
#   MKL_WHEEL=/path/mkl-*.whl bench/fetch_mkl.sh  unpack a wheel already downloaded instead
#   MKL_VERSION=2026.2.0 bench/fetch_mkl.sh       pin a version (default: the newest pip offers)
#   PYTHON=/usr/bin/python3 bench/fetch_mkl.sh    the Python whose pip downloads (default: python3)
#
# Downloads the `mkl` wheel with `pip download --no-deps` (about 200 MB; the threading runtimes it
# depends on are not needed: bench_math uses MKL_THREADING_LAYER=SEQUENTIAL) and unpacks libmkl_rt
# and the libraries VM loads: core, sequential, the LP64 interface and the VM code paths
# (libmkl_vml_*; about 210 MB; MKL's BLAS/LAPACK kernels are not needed). Idempotent: a DIR that
# already holds them is left alone. MKL is under the Intel Simplified Software License, which the
# wheel's dist-info holds; it is copied next to the libraries.
#
# Then: build/bench_math (finds build/mkl by itself), or ACCELMATH_MKL_LIB_DIR=DIR build/bench_math.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$root/build/mkl}
py=${PYTHON:-python3}
needed=(libmkl_rt.so.3 libmkl_core.so.3 libmkl_sequential.so.3 libmkl_intel_lp64.so.3)

have_all() {
  [ -f "$dir/.mkl-wheel" ] || return 1
  for f in "${needed[@]}"; do [ -f "$dir/$f" ] || return 1; done
  compgen -G "$dir/libmkl_vml_*.so.*" >/dev/null
}
if have_all; then
  echo "MKL already in $dir ($(cat "$dir/.mkl-wheel"))"
  exit 0
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wheel=${MKL_WHEEL:-}
if [ -z "$wheel" ]; then
  spec=mkl${MKL_VERSION:+==$MKL_VERSION}
  echo "downloading the $spec wheel with pip ..."
  "$py" -m pip download --no-deps --only-binary=:all: --disable-pip-version-check -q "$spec" -d "$tmp"
  wheel=$(ls "$tmp"/mkl-*.whl | head -n 1)
fi
[ -f "$wheel" ] || { echo "fetch_mkl.sh: no wheel at '$wheel'" >&2; exit 1; }

mkdir -p "$dir"
"$py" - "$wheel" "$dir" <<'EOF'
import fnmatch, os, shutil, sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
wanted = ["libmkl_rt.so.*", "libmkl_core.so.*", "libmkl_sequential.so.*", "libmkl_intel_lp64.so.*",
          "libmkl_vml_*.so.*"]
n = 0
with zipfile.ZipFile(wheel) as z:
    for info in z.infolist():
        base = os.path.basename(info.filename)
        if "/lib/" in info.filename and any(fnmatch.fnmatch(base, w) for w in wanted):
            target = os.path.join(dest, base)
            with z.open(info) as src, open(target + ".part", "wb") as out:
                shutil.copyfileobj(src, out)
            os.chmod(target + ".part", 0o755)
            os.replace(target + ".part", target)
            n += 1
        elif info.filename.endswith(".dist-info/LICENSE.txt"):
            with z.open(info) as src, open(os.path.join(dest, "MKL-LICENSE.txt"), "wb") as out:
                shutil.copyfileobj(src, out)
if n == 0:
    sys.exit(f"fetch_mkl.sh: no MKL libraries in {wheel}")
print(f"unpacked {n} libraries")
EOF
basename "$wheel" >"$dir/.mkl-wheel"
have_all || { echo "fetch_mkl.sh: $dir still lacks one of ${needed[*]} or libmkl_vml_*" >&2; exit 1; }
echo "MKL in $dir ($(cat "$dir/.mkl-wheel")); build/bench_math finds it there, or set ACCELMATH_MKL_LIB_DIR=$dir"
