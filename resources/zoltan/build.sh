#!/usr/bin/env bash
# Compiles crawlbench's Zoltan PHG driver (phg-driver.c beside this script) into OUTPUT against
# Debian's libtrilinos-zoltan-dev and Open MPI. The one place its compile command lives: used by
# `partition` on first use (core/graph/tools.ts) and by the test tools' setup.
#
#   bash resources/zoltan/build.sh OUTPUT
#
# Exit 0: OUTPUT is built. Exit 3: something to install, said in one line on stderr. Exit 2:
# wrong usage. Exit 1: the compiler failed (its messages on stderr).
# CC picks the C compiler (default: cc, then gcc, then clang).
set -u

INSTALL='apt-get install gcc libtrilinos-zoltan-dev libopenmpi-dev'
# Bash alone up to the checks (no dirname, ls): a PATH without the tools still gets its one line.
case "${BASH_SOURCE[0]}" in */*) here=${BASH_SOURCE[0]%/*} ;; *) here=. ;; esac
source_file="$here/phg-driver.c"

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: bash resources/zoltan/build.sh OUTPUT" >&2
  exit 2
fi
out=$1
missing() {
  echo "crawlbench's Zoltan PHG driver needs $1: $INSTALL" >&2
  exit 3
}

cc=${CC:-}
if [ -z "$cc" ]; then
  for c in cc gcc clang; do
    if command -v "$c" >/dev/null 2>&1; then cc=$c; break; fi
  done
fi
[ -n "$cc" ] && command -v "$cc" >/dev/null 2>&1 || missing 'a C compiler'

zoltan_include=/usr/include/trilinos
[ -f "$zoltan_include/zoltan.h" ] || missing "Zoltan's headers ($zoltan_include/zoltan.h)"

# Open MPI's flags: from its compiler wrapper, else pkg-config, else Debian's multiarch folder.
mpi_cflags=''
mpi_libs=''
if command -v mpicc >/dev/null 2>&1 && mpicc --showme:compile >/dev/null 2>&1; then
  mpi_cflags=$(mpicc --showme:compile)
  mpi_libs=$(mpicc --showme:link)
elif command -v pkg-config >/dev/null 2>&1 && pkg-config --exists ompi-c 2>/dev/null; then
  mpi_cflags=$(pkg-config --cflags ompi-c)
  mpi_libs=$(pkg-config --libs ompi-c)
else
  for inc in /usr/lib/*/openmpi/include; do
    if [ -f "$inc/mpi.h" ]; then
      mpi_cflags="-I$inc -I$inc/openmpi"
      mpi_libs="-L${inc%/include}/lib -lmpi"
      break
    fi
  done
fi
[ -n "$mpi_cflags" ] || missing "Open MPI's headers (mpi.h)"

case "$out" in */*) mkdir -p "${out%/*}" || exit 1 ;; esac
# Built beside OUTPUT and renamed into place: two first uses at once never run a half-written file.
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
# shellcheck disable=SC2086 # the flags are word lists
if ! "$cc" -O2 -std=gnu11 -Wall -o "$tmp" "$source_file" -I"$zoltan_include" $mpi_cflags -ltrilinos_zoltan $mpi_libs -lm; then
  # A library that is not there shows as a link error: say what to install rather than the linker's words.
  found=''
  for lib in /usr/lib/*/libtrilinos_zoltan.so /usr/lib/libtrilinos_zoltan.so; do [ -e "$lib" ] && found=$lib; done
  [ -n "$found" ] || missing "Zoltan's library (libtrilinos_zoltan.so)"
  echo "crawlbench's Zoltan PHG driver did not compile with $cc (the messages above)" >&2
  exit 1
fi
mv -f "$tmp" "$out"
