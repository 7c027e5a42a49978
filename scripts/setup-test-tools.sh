#!/usr/bin/env bash
# npm run setup:test-tools: brings the outside references the tests check crawlbench against
# (test/reference-probes.ts lists them, with why each is there), as far as this machine can:
#   - Debian or Ubuntu packages through apt-get, as root or with sudo: python3-networkx and
#     python3-scipy (an independent PageRank: networkx's pagerank runs on SciPy), chromium (the
#     browser the workbench tests drive), metis (gpmetis, graphchk), nats-server (the parallel
#     crawl's broker), Zoltan with OpenMPI and a C compiler (the hypergraph partitioner);
#   - crawlbench's Zoltan driver, compiled into the cache (CRAWLBENCH_CACHE, else
#     ~/.cache/crawlbench), where crawlbench looks for it;
#   - Python warcio, where pip reaches its registry (a second independent WARC reader);
#   - KaHyPar, only when asked (--kahypar): built from its public source release into the same
#     cache, on a machine that reaches it.
# Idempotent: what is here already is left alone, and a run with nothing to do says so.
# Runs before `npm ci` (it needs no node_modules).
set -uo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${CRAWLBENCH_CACHE:-$HOME/.cache/crawlbench}"
want_kahypar=0
for arg in "$@"; do
  case "$arg" in
    --kahypar) want_kahypar=1 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup:test-tools: unknown option $arg (only --kahypar)" >&2; exit 2 ;;
  esac
done

did=()
left=()
say() { printf 'setup:test-tools: %s\n' "$*"; }

# --- Debian packages --------------------------------------------------------------------------
packages=(python3-networkx python3-scipy chromium metis nats-server libtrilinos-zoltan-dev libopenmpi-dev gcc)
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
else
  missing=("${packages[@]}")
fi
if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    left+=("not a Debian or Ubuntu machine: install by hand ${missing[*]} (or their equivalents)")
  else
    if [ "$(id -u)" = 0 ]; then sudo=(); elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo -n); else sudo=(none); fi
    if [ "${sudo[0]:-}" = none ]; then
      left+=("as root: apt-get install ${missing[*]}")
    else
      say "installing ${missing[*]} with apt-get"
      export DEBIAN_FRONTEND=noninteractive
      "${sudo[@]}" apt-get update -qq >/dev/null 2>&1 || say "apt-get update failed; trying the install with the lists there are"
      if "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/tmp/crawlbench-apt.log 2>&1; then
        did+=("installed ${missing[*]}")
      else
        left+=("apt-get install ${missing[*]} failed (see /tmp/crawlbench-apt.log)")
      fi
    fi
  fi
fi

# --- crawlbench's Zoltan driver ---------------------------------------------------------------
driver="$cache/zoltan/crawlbench-phg"
source_c="$root/resources/zoltan/phg-driver.c"
if [ -x "$driver" ] && [ ! "$source_c" -nt "$driver" ]; then
  :
elif out=$(bash "$root/resources/zoltan/build.sh" "$driver" 2>&1); then
  did+=("compiled the Zoltan driver into $driver")
else
  left+=("the Zoltan driver: $(printf '%s' "$out" | tail -n 1)")
fi

# --- Python warcio, where pip reaches its registry --------------------------------------------
if /usr/bin/python3 -c 'import warcio' >/dev/null 2>&1; then
  :
elif /usr/bin/python3 -m pip --version >/dev/null 2>&1; then
  if timeout 120 /usr/bin/python3 -m pip install --quiet --user --break-system-packages warcio >/dev/null 2>&1; then
    did+=("installed Python warcio with pip")
  else
    left+=("Python warcio: pip could not install it (no registry in reach?); its one test skips, with this note")
  fi
else
  left+=("Python warcio: no pip for /usr/bin/python3 (apt-get install python3-pip, then run this again); its one test skips")
fi

# --- KaHyPar, from its source release, only when asked ----------------------------------------
kahypar="$cache/kahypar/bin/KaHyPar"
if [ -x "$kahypar" ] || [ -n "${CRAWLBENCH_KAHYPAR:-}" ] || command -v KaHyPar >/dev/null 2>&1; then
  :
elif [ "$want_kahypar" = 1 ]; then
  say "building KaHyPar from its source release (needs git, cmake, g++ and Boost's program_options; several minutes)"
  work="$(mktemp -d)"
  if git clone -q --depth 1 --recursive --branch 1.3.5 https://github.com/kahypar/kahypar.git "$work/kahypar" \
    && cmake -S "$work/kahypar" -B "$work/build" -DCMAKE_BUILD_TYPE=RELEASE >/dev/null \
    && cmake --build "$work/build" --target KaHyPar -j "$(nproc)" >/dev/null \
    && mkdir -p "$cache/kahypar/bin" "$cache/kahypar/config" \
    && cp "$work/build/kahypar/application/KaHyPar" "$kahypar" \
    && cp "$work/kahypar/config/km1_kKaHyPar_sea20.ini" "$cache/kahypar/config/"; then
    did+=("built KaHyPar into $cache/kahypar")
  else
    left+=("KaHyPar: the build from github.com/kahypar/kahypar failed (network, or apt-get install git cmake g++ libboost-program-options-dev)")
  fi
  rm -rf "$work"
else
  left+=("KaHyPar (optional): npm run setup:test-tools -- --kahypar builds it from its source release on a machine that reaches github.com; its tests skip, with this note, until then")
fi

# --- The UCI dataset, never shipped -----------------------------------------------------------
uci="${CRAWLBENCH_UCI:-$cache/datasets/uci-ics-2019}"
if [ ! -f "$uci/pages.tsv.gz" ] || [ ! -f "$uci/links.tsv.gz" ]; then
  left+=("the UCI ICS web graph is not shipped (no terms allow republishing it): put its pages.tsv.gz and links.tsv.gz in $cache/datasets/uci-ics-2019 or set CRAWLBENCH_UCI=DIR; its tests skip until then")
fi

# --- What happened ----------------------------------------------------------------------------
if [ ${#did[@]} -eq 0 ]; then
  say "nothing to do: every reference this machine can have is here"
else
  for d in "${did[@]}"; do say "$d"; done
fi
for l in "${left[@]}"; do say "not here: $l"; done
exit 0
