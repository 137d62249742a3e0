# shellcheck shell=bash
# The robot side of `Make/deploy <robot> --setup`: what a team sets up once per robot, as root. deploy.py sends this
# text over ssh (`bash -c <this> setup <user> <dry-run 0|1>`, <user> being the one the service runs as) and shows
# what it prints. Every step looks first and changes only what is not yet as wanted, so a second run changes nothing.
# The steps, and the public sources for the NAO's services: Util/Deploy/README.md (`--setup`).
#
# NAO_SETUP_ROOT (default: empty, i.e. /) is put before every file path and NAO_LOLA_SOCKET (default /tmp/robocup)
# names LoLA's socket; loginctl, sudo, su and mount come from PATH. The tests use both to run this on a fake robot.
set -euo pipefail
umask 022
user="$1"
dry="$2"
root="${NAO_SETUP_ROOT:-}"
socket="${NAO_LOLA_SOCKET:-/tmp/robocup}"
priority=40                     # bin/run's --motion-priority: SCHED_FIFO 40 with memory locked
naoqiUnits="/nao/etc/systemd/user" # the stock image's units of nao's systemd user manager (NAOqi, LoLA, HAL)
naoqiWants="$naoqiUnits/aldebaran.target.wants"
steps=5
changed=0
remounted=()

say() { echo "$*"; }
fail() {
  echo "error: $*" >&2
  exit 1
}
step() {
  local number="$1"
  shift
  say "[$number/$steps] $*"
}

[[ "$user" =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]*$ ]] || fail "'$user' is not a user name"
home=""
eval "home=~$user" # the user's home from the password database (bash's tilde expansion)
case "$home" in "~"*) fail "there is no user '$user' on the robot" ;; esac

# --- root --------------------------------------------------------------------------------------------------------
# A dry run only reads; the set-up itself needs root: as root directly, else with sudo when that needs no password,
# else with su, which asks for root's password on the terminal that Make/deploy opens when it runs in one.
if [ "$(id -u)" != 0 ]; then
  if [ "$dry" = 1 ]; then
    say "as $(id -un), not root: the set-up becomes root with sudo if that needs no password, else with su" \
      "(root's password; on a terminal only)"
  elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
    say "becoming root with sudo"
    exec sudo -n bash -c "$BASH_EXECUTION_STRING" setup "$user" "$dry"
  elif [ -t 0 ]; then
    say "becoming root with su: root's password please (the RoboCup image's is root unless it was changed)"
    export NAO_SETUP_SCRIPT="$BASH_EXECUTION_STRING"
    exec su root -c "exec bash -c \"\$NAO_SETUP_SCRIPT\" setup $user $dry"
  else
    fail "cannot become root as $(id -un): sudo needs a password (or is missing) and su needs a terminal for it." \
      "Run Make/deploy ... --setup from a terminal (su asks for root's password), or log in as root" \
      "(--setup-user root, with your key in ~root/.ssh/authorized_keys); nothing was changed"
  fi
fi

# Makes the file system of path $1 (or of its nearest existing folder) writable where it is mounted read-only (NaoTH's
# set-up remounts / read-write for its changes there); it is mounted read-only again at the end.
writable() {
  local path="$1" mountPoint
  while [ ! -e "$path" ]; do path="$(dirname "$path")"; done
  [ -w "$path" ] && return 0
  mountPoint="$(df -P "$path" | awk 'NR == 2 { print $6 }')"
  say "      remounting $mountPoint read-write (it is read-only; read-only again at the end)"
  mount -o remount,rw "$mountPoint" || fail "cannot remount $mountPoint read-write"
  remounted+=("$mountPoint")
}
remountBack() {
  local mountPoint
  for mountPoint in ${remounted[@]+"${remounted[@]}"}; do
    sync
    mount -o remount,ro "$mountPoint" || echo "warning: could not remount $mountPoint read-only" >&2
  done
}
trap remountBack EXIT

# Writes $2 into file $1 (a new file renamed into place) unless the dry run.
writeFile() {
  mkdir -p "$(dirname "$1")"
  printf '%s' "$2" > "$1.new.$$"
  mv -f "$1.new.$$" "$1"
}

# "name pid N" for each running process whose name (comm in /proc) matches the pattern $1.
processes() {
  local comm name pid
  for comm in /proc/[0-9]*/comm; do
    { read -r name < "$comm"; } 2> /dev/null || continue
    pid="${comm%/comm}"
    # shellcheck disable=SC2254 # $1 is a pattern
    case "$name" in $1) echo "$name pid ${pid#/proc/}" ;; esac
  done
}

verb() { if [ "$dry" = 1 ]; then echo "would $1"; else echo "$2"; fi; }

# --- 1: real-time limits -----------------------------------------------------------------------------------------
limits="/etc/security/limits.d/$user.conf"
rules="$user - rtprio $priority
$user - memlock unlimited"
current=""
if [ -f "$root$limits" ]; then current="$(sed 's/#.*//' "$root$limits" | awk 'NF { $1 = $1; print }')"; fi
if grep -qxF "$user - rtprio $priority" <<< "$current" && grep -qxF "$user - memlock unlimited" <<< "$current"; then
  step 1 "real-time limits: already done ($limits has '$user - rtprio $priority', '$user - memlock unlimited')"
else
  step 1 "real-time limits: $(verb write wrote) $limits: '$user - rtprio $priority', '$user - memlock unlimited'" \
    "(pam_limits gives them to $user's user manager from its next start: the next boot)"
  [ -z "$current" ] || say "      it held: ${current//$'\n'/; }"
  changed=$((changed + 1))
  if [ "$dry" = 0 ]; then
    writable "$root$limits"
    writeFile "$root$limits" "# Written by Make/deploy --setup: bin/run starts the robot binary with
# --motion-priority $priority (its motion thread SCHED_FIFO $priority, all memory locked).
$rules
"
  fi
fi

# --- 2: lingering ------------------------------------------------------------------------------------------------
linger="/var/lib/systemd/linger/$user"
if [ -e "$root$linger" ]; then
  step 2 "lingering: already done ($linger: $user's user manager, and with it nao.service, starts at boot)"
else
  step 2 "lingering: $(verb "run 'loginctl enable-linger $user'" "ran 'loginctl enable-linger $user'") (its user" \
    "manager, and with it nao.service, starts at boot without a login)"
  changed=$((changed + 1))
  if [ "$dry" = 0 ]; then
    loginctl enable-linger "$user" || fail "loginctl enable-linger $user failed"
    [ -e "$root$linger" ] || fail "loginctl enable-linger $user left no $linger"
  fi
fi

# --- 3: NAOqi's autostart off ------------------------------------------------------------------------------------
# On the stock image NAOqi is naoqi.service (and on some versions naoqi-legacy.service) of nao's user manager, started
# through the links in aldebaran.target.wants/; lola.service and hal.service stay: LoLA is what the binary talks to.
links=()
for unit in naoqi.service naoqi-legacy.service; do
  if [ -L "$root$naoqiWants/$unit" ] || [ -e "$root$naoqiWants/$unit" ]; then links+=("$naoqiWants/$unit"); fi
done
if [ ! -d "$root$naoqiUnits" ]; then
  step 3 "NAOqi's autostart: nothing to do (no $naoqiUnits: not the stock NAOqi OS)"
elif [ "${#links[@]}" = 0 ]; then
  step 3 "NAOqi's autostart: already done (no naoqi.service in $naoqiWants; lola.service and hal.service stay)"
else
  step 3 "NAOqi's autostart: $(verb remove removed) ${links[*]} (NAOqi does not start from the next boot on;" \
    "lola.service and hal.service stay)"
  changed=$((changed + 1))
  if [ "$dry" = 0 ]; then
    writable "$root$naoqiWants"
    for link in "${links[@]}"; do rm -f -- "$root$link"; done
  fi
fi

# --- 4: RoboCup mode ---------------------------------------------------------------------------------------------
robocup="$home/robocup.conf"
if [ -e "$root$robocup" ]; then
  step 4 "RoboCup mode: already done ($robocup is there: LoLA serves $socket)"
else
  step 4 "RoboCup mode: $(verb create created) $robocup (LoLA serves $socket only when it exists; it looks when it" \
    "starts: the next boot)"
  changed=$((changed + 1))
  if [ "$dry" = 0 ]; then
    [ -d "$root$home" ] || fail "$user's home $home is missing"
    : > "$root$robocup"
    chown "$user:" "$root$robocup"
  fi
fi

# --- 5: LoLA -----------------------------------------------------------------------------------------------------
lola="$(processes lola | head -n 1)"
naoqi="$(processes 'naoqi*' | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
if [ -S "$socket" ]; then
  step 5 "LoLA: its socket $socket is there${lola:+ ($lola)}"
elif [ "$changed" != 0 ]; then
  step 5 "LoLA: its socket $socket is missing: reboot the robot after the set-up; LoLA (lola.service of $user's" \
    "user manager, /opt/aldebaran/bin/lola) makes it when it starts in RoboCup mode"
else
  why="LoLA is not running: reboot the robot"
  [ -z "$lola" ] || why="LoLA runs ($lola) without it: it is not in RoboCup mode since its start; reboot"
  step 5 "LoLA: its socket $socket is missing. $why; if it is still missing then, as $user on the robot:" \
    "'systemctl --user status lola.service'. Until then the service cannot start the binary on LoLA" \
    "(on a bench: --body standin in local/args)"
fi
if [ -n "$naoqi" ]; then
  say "      NAOqi is running ($naoqi): with its autostart off it is gone after the next boot (now: as $user," \
    "'systemctl --user stop naoqi.service'); if it still runs after a reboot, another unit pulls it in:" \
    "'systemctl --user list-dependencies --reverse naoqi.service' shows which"
fi

if [ "$dry" = 1 ]; then
  say "dry run: $changed of 4 steps would change the robot; nothing changed"
elif [ "$changed" = 0 ]; then
  say "nothing to change: every step was already done"
else
  say "set-up done ($changed of 4 steps changed the robot): reboot the robot ('reboot' as root) so that they take" \
    "effect"
fi
