# shellcheck shell=bash
# The robot side of Make/deploy. deploy.py sends this text with every ssh call (`bash -c <this> remote <op> ...`),
# so the robot needs nothing installed but bash, coreutils, rsync and systemd. Lines "@key=value" on stdout are data
# for deploy.py; everything for the user goes to stderr. Layout: Util/Deploy/README.md.
set -euo pipefail
umask 022
base="$HOME/nao-framework"
versions="$base/versions"
unit=nao.service
unitDir="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user"
# The deploy lock: a `lock` session holds flock on it for a whole deploy or rollback. Its first line names the
# holder, its second is the holder's token; the file stays (removing it would split the lock), empty when free.
lockFile="$base/.deploy.lock"

say() { echo "  $*" >&2; }
fail() { echo "error: $*" >&2; exit 1; }
data() { echo "@$1=$2"; }

# The version a link (current, previous) points at, or nothing.
target() { [ -L "$1" ] && basename "$(readlink "$1")" || true; }

# Replaces (or creates) the symbolic link $2 -> $1 in one rename: nobody ever sees it missing or half-written.
atomicLink() {
  local temp
  temp="$(dirname "$2")/.$(basename "$2").new.$$"
  rm -f "$temp"
  ln -s "$1" "$temp"
  mv -T "$temp" "$2"
}

systemdUp() { systemctl --user show-environment > /dev/null 2>&1; }

# Fails unless the Make/deploy with token $1 holds the deploy lock: prepare, finalize and rollback change the robot
# only under it.
holdsLock() {
  if [ -z "$1" ] || [ ! -f "$lockFile" ] || [ "$(sed -n 2p "$lockFile")" != "$1" ] || flock -n "$lockFile" true; then
    fail "this Make/deploy does not hold the deploy lock $lockFile (its connection ended?): nothing changed"
  fi
}

# The holder of a taken lock (read-only: a shared lock that fails while a deploy holds it exclusively).
lockHolder() {
  if [ -s "$lockFile" ] && command -v flock > /dev/null && ! flock -n -s "$lockFile" true 2> /dev/null; then
    sed -n 1p "$lockFile"
  fi
}

mainPid() {
  local pid
  pid="$(systemctl --user show -p MainPID --value "$unit" 2> /dev/null || true)"
  [ -n "$pid" ] && [ "$pid" != 0 ] && [ -d "/proc/$pid" ] && echo "$pid" || true
}

# The version folder the process runs from (its executable is versions/<version>/bin/nao).
runningVersion() {
  local exe real
  exe="$(readlink "/proc/$1/exe" 2> /dev/null || true)"
  exe="${exe% (deleted)}"
  real="$(cd "$versions" 2> /dev/null && pwd -P || echo "$versions")" # /proc/<pid>/exe has no symbolic links
  case "$exe" in "$real"/*/bin/nao) basename "$(dirname "$(dirname "$exe")")" ;; esac
}

uptimeSeconds() { # from /proc, so that it needs no procps
  local start ticks now
  start="$(sed 's/.*) //' "/proc/$1/stat" | cut -d' ' -f20)"
  ticks="$(getconf CLK_TCK)"
  now="$(cut -d' ' -f1 /proc/uptime)"
  awk -v now="$now" -v start="$start" -v ticks="$ticks" 'BEGIN { printf "%d", now - start / ticks }'
}

stateData() {
  local pid
  data base "$base"
  data current "$(target "$base/current")"
  data previous "$(target "$base/previous")"
  data versions "$(cd "$versions" 2> /dev/null && ls -1d -- [!.]* 2> /dev/null | tr '\n' ' ' || true)"
  data incoming "$(cd "$versions" 2> /dev/null && ls -1d -- .incoming-* 2> /dev/null | tr '\n' ' ' || true)"
  data logs "$( [ -d "$base/logs" ] && echo yes || echo no)"
  data glibc "$(getconf GNU_LIBC_VERSION 2> /dev/null | sed 's/^glibc //' || true)"
  data lock "$(lockHolder)"
  if systemdUp; then
    data systemd yes
    data active "$(systemctl --user is-active "$unit" 2> /dev/null || true)"
    data enabled "$( [ -L "$unitDir/default.target.wants/$unit" ] && echo yes || echo no)"
    pid="$(mainPid)"
    if [ -n "$pid" ]; then
      data pid "$pid"
      data running "$(runningVersion "$pid")"
      data uptime "$(uptimeSeconds "$pid")"
    fi
  else
    data systemd no
  fi
}

# The unit file is a link to current/nao.service, so that switching current switches the unit with it; the
# default.target.wants link is what `systemctl --user enable` makes (the user manager starts it at boot).
installUnit() {
  mkdir -p "$unitDir/default.target.wants"
  atomicLink "$base/current/$unit" "$unitDir/$unit"
  atomicLink "$unitDir/$unit" "$unitDir/default.target.wants/$unit"
  if systemdUp; then
    systemctl --user daemon-reload || fail "systemctl --user daemon-reload failed"
  else
    say "warning: the systemd user manager is not reachable (no user session, lingering off?):" \
      "the unit starts at the next boot"
  fi
}

restartService() {
  local pid="" running=""
  systemdUp || fail "cannot restart: the systemd user manager is not reachable" \
    "(enable lingering: loginctl enable-linger $(id -un))"
  systemctl --user reset-failed "$unit" > /dev/null 2>&1 || true
  systemctl --user restart "$unit" || fail "systemctl --user restart $unit failed"
  for _ in $(seq 50); do
    pid="$(mainPid)"
    [ -n "$pid" ] && running="$(runningVersion "$pid")"
    [ -n "$running" ] && [ "$running" = "$(target "$base/current")" ] && break
    sleep 0.1
  done
  sleep 1
  if [ -z "$pid" ] || [ "$(mainPid)" != "$pid" ] || [ "$running" != "$(target "$base/current")" ]; then
    journalctl --user -u "$unit" -n 20 --no-pager >&2 2> /dev/null || true
    fail "$unit did not stay up running $(target "$base/current") (last lines of its output above); current is" \
      "$(target "$base/current") now, --rollback --restart goes back to $(target "$base/previous")"
  fi
  say "restarted: pid $pid runs $running"
  data pid "$pid"
  data running "$running"
}

# Removes old versions beyond the newest $1; never current, previous or the one running.
prune() {
  local keep="$1" current previous running pid version
  current="$(target "$base/current")"
  previous="$(target "$base/previous")"
  pid="$(mainPid)"
  running="$( [ -n "$pid" ] && runningVersion "$pid" || true)"
  (cd "$versions" && ls -1d -- [!.]* 2> /dev/null | sort -r | tail -n +"$((keep + 1))") | while read -r version; do
    case "$version" in "$current" | "$previous" | "$running") continue ;; esac
    rm -rf -- "${versions:?}/$version"
    say "removed old version $version"
  done
}

op="$1"
shift
case "$op" in
state) # read-only
  stateData
  ;;
lock) # <holder> <token>: takes the deploy lock (waits 2 s at most) and holds it while lines come on stdin
  command -v flock > /dev/null || fail "flock (util-linux) is not installed on the robot"
  mkdir -p "$base"
  exec 9>> "$lockFile"
  if ! flock -w 2 9; then
    data holder "$(sed -n 1p "$lockFile")"
    data lockfile "$lockFile"
    exit 3
  fi
  stale="$(sed -n 1p "$lockFile")"
  if [ -n "$stale" ]; then
    say "took over the deploy lock of $stale: it ended without freeing it (killed, or the robot rebooted)"
  fi
  printf '%s\n%s\n' "$1" "$2" > "$lockFile" # the same file: flock stays on it
  data locked "$1"
  # Make/deploy writes a line every 10 s; the end of its input (it ended, the connection is gone) or 45 s without
  # a line (a connection that died silently) frees the lock.
  while read -r -t 45 _; do :; done
  : > "$lockFile"
  ;;
prepare) # <version> <token>: creates the folders, removes interrupted copies, prints a free version name
  holdsLock "$2"
  [ -n "$(command -v rsync)" ] || fail "rsync is not installed on the robot"
  mkdir -p "$versions" "$base/local" "$base/logs"
  for stale in "$versions"/.incoming-*; do
    [ -e "$stale" ] || continue
    rm -rf -- "$stale"
    say "removed an interrupted copy: versions/$(basename "$stale")"
  done
  version="$1"
  n=2
  while [ -e "$versions/$version" ]; do
    version="$1-$n"
    n=$((n + 1))
  done
  data version "$version"
  stateData
  ;;
finalize) # <version> <restart 0|1> <keep> <token>: checks the copy, then switches current to it
  holdsLock "$4"
  version="$1"
  incoming="$versions/.incoming-$version"
  [ -d "$incoming" ] || fail "no copy at $incoming"
  if ! (cd "$incoming" && sha256sum --check --quiet --strict MANIFEST > /dev/null 2>&1); then
    rm -rf -- "$incoming"
    fail "the copy of $version is incomplete or corrupt (MANIFEST does not match): removed it, nothing switched"
  fi
  if ! "$incoming/bin/run" --check < /dev/null > "$incoming/check.out" 2>&1; then
    tail -n 20 "$incoming/check.out" >&2
    rm -rf -- "$incoming"
    fail "$version does not start on the robot (bin/run --check, output above): removed it, nothing switched"
  fi
  sync # the files are on disk before any link points at them: a power cut cannot leave current at empty files
  mv -T "$incoming" "$versions/$version"
  old="$(target "$base/current")"
  # previous first: an interruption between the two renames leaves previous = current, never a lost version.
  if [ -n "$old" ] && [ "$old" != "$version" ]; then atomicLink "versions/$old" "$base/previous"; fi
  atomicLink "versions/$version" "$base/current"
  say "current -> versions/$version${old:+ (previous: $old)}"
  installUnit
  sync
  if [ "$2" = 1 ]; then restartService; fi
  prune "$3"
  stateData
  ;;
rollback) # <restart 0|1> <dry-run 0|1> <token>
  current="$(target "$base/current")"
  previous="$(target "$base/previous")"
  [ -n "$previous" ] || fail "no previous version to roll back to (nothing deployed twice yet)"
  [ -d "$versions/$previous" ] || fail "previous version $previous is missing from $versions"
  if [ "$2" = 1 ]; then
    restart=""
    if [ "$1" = 1 ]; then restart=" and restart $unit"; fi
    say "dry run: would switch current from $current to $previous$restart; nothing changed"
    exit 0
  fi
  holdsLock "$3"
  atomicLink "versions/$previous" "$base/current"
  atomicLink "versions/$current" "$base/previous"
  say "current -> versions/$previous (previous: $current)"
  installUnit
  sync
  if [ "$1" = 1 ]; then restartService; fi
  stateData
  ;;
status) # <lines>
  stateData
  if [ -f "$base/current/version.env" ]; then sed 's/^/@env./' "$base/current/version.env"; fi
  if command -v journalctl > /dev/null; then
    journalctl --user -u "$unit" -n "$1" --no-pager 2>&1 | sed 's/^/@journal=/' || true
  fi
  ;;
journal) # the service's whole output, for --logs
  journalctl --user -u "$unit" --no-pager 2>&1 || true
  ;;
*)
  fail "unknown operation '$op'"
  ;;
esac
