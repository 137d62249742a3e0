#!/usr/bin/env python3
"""Make/deploy: builds the robot binary (static), copies it with Config/ and a systemd user unit into a new
version folder on a NAO over ssh/rsync, switches `current` to it atomically and restarts the service when asked;
also rolls back, shows the status, downloads logs and does a robot's one-time set-up as root (--setup). Layout and
assumptions: Util/Deploy/README.md.

Environment: NAO_DEPLOY_SSH_CONFIG (an ssh_config file used instead of ~/.ssh/config), NAO_DEPLOY_BUILD_DIR (a
configured CMake build folder used instead of Build/<type>)."""
import argparse
import datetime
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("Make/deploy: needs Python 3.11 or newer (tomllib)")

from processes import DeployError, Stopped, on_signal, run  # noqa: E402
from robots import Connection, Robot, RobotLock, known_robots, locked, rel, resolve_robot  # noqa: E402
from staging import (BUILD_TYPES, build, build_folder, git_version, required_glibc, scenario_of,  # noqa: E402
                     shared_libraries, stage_version, version_tuple)

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent


def duration(seconds: str) -> str:
    total = int(seconds or 0)
    return f"{total // 3600}h {total % 3600 // 60:02d}m {total % 60:02d}s"


def print_state(label: str, state: dict):
    print(f"{label}:")
    print(f"  current   {state.get('current') or '(nothing deployed)'}")
    print(f"  previous  {state.get('previous') or '-'}")
    versions = state.get("versions", "").split()
    print(f"  versions  {len(versions)} on the robot{': ' + ', '.join(versions) if versions else ''}")
    if state.get("incoming", "").strip():
        print(f"  interrupted copies (removed by the next deploy): {state['incoming'].strip()}")
    if state.get("lock"):
        print(f"  locked    by a deploy in progress: {state['lock']}")


def command_list(config: Path):
    robots = known_robots(config)
    if not robots:
        print(f"no robots: add {rel(config / 'Robots')}/<name>/network.toml")
        return
    print(f"{'robot':<12} {'address':<20} {'user':<8} {'port':<6} player")
    for robot in robots.values():
        print(f"{robot.name:<12} {robot.address:<20} {robot.user or '-':<8} {robot.port or '-':<6} "
              f"{robot.player or '-'}")
    print("(user, port '-': your ssh configuration's for the address, else nao and 22)")


def command_status(connection: Connection, lines: int):
    state, journal = connection.remote("status", lines)
    print_state(f"{connection.label}", state)
    if state.get("current"):
        print(f"  built     {state.get('env.NAO_BUILD', '?')}, robot {state.get('env.NAO_ROBOT', '?')}, "
              f"scenario {state.get('env.NAO_SCENARIO', '?')}, player {state.get('env.NAO_PLAYER') or '-'}, "
              f"{'recording logs' if state.get('env.NAO_RECORD') == '1' else 'not recording'}")
    if state.get("systemd") != "yes":
        print("  service   unknown: the systemd user manager is not reachable")
    elif state.get("pid"):
        print(f"  service   {state.get('active')}, pid {state['pid']}, running {state.get('running') or '?'}, "
              f"up {duration(state.get('uptime', '0'))}")
        if state.get("running") != state.get("current"):
            print(f"  note      the service runs {state.get('running')}, not current ({state.get('current')}): "
                  "run `systemctl --user restart nao.service` on the robot, or deploy with --restart")
    else:
        print(f"  service   {state.get('active', 'inactive')} (enabled at boot: {state.get('enabled', 'no')})")
    print(f"last {lines} lines of the service's output (journalctl --user -u nao.service):")
    for line in journal or ["(none)"]:
        print(f"  {line}")


def command_logs(connection: Connection, destination: Path, dry_run: bool):
    state, _ = connection.remote("state")
    if state.get("logs") != "yes":
        raise DeployError(f"{connection.label} has no {state['base']}/logs/ (nothing deployed there yet)")
    source = f"{state['base']}/logs/"
    # Regular files only: a link or a FIFO from the robot could make a later write here land outside DIR.
    plain = ["--no-links", "--no-devices", "--no-specials"]
    print(f"{'dry run: would download' if dry_run else 'downloading'} {connection.label}:{source} into {destination}/")
    if dry_run:
        connection.rsync(connection.remote_path(source), f"{destination}/", ["--dry-run", "--itemize-changes", *plain])
        print("dry run: nothing changed")
        return
    destination.mkdir(parents=True, exist_ok=True)
    code = connection.rsync(connection.remote_path(source), f"{destination}/",
                            ["--partial", "--itemize-changes", *plain])
    if code != 0:
        raise DeployError(f"rsync of the logs from {connection.label} failed (exit code {code}); run again to resume")
    # The journal goes to a new file renamed over journal.txt: whatever journal.txt was (a link), it is replaced,
    # never written through.
    with tempfile.NamedTemporaryFile("w", dir=destination, prefix=".journal-", delete=False) as stream:
        journal = run(connection.remote_command("journal"), stdin=subprocess.DEVNULL, stdout=stream,
                      relay_stderr=True)
    try:
        if journal.returncode == 0:
            os.replace(stream.name, destination / "journal.txt")
    except OSError as error:
        raise DeployError(f"cannot write {destination / 'journal.txt'}: {error}") from None
    finally:
        Path(stream.name).unlink(missing_ok=True)
    files = [path for path in destination.iterdir() if path.is_file()]
    print(f"{len(files)} files in {destination}/ (logs/*.log from the robot, journal.txt: the service's output)")


def command_rollback(connection: Connection, restart: bool, dry_run: bool):
    if dry_run:
        connection.remote("rollback", int(restart), 1, "")
        return
    with connection.lock("rollback") as lock:
        data, _ = connection.remote("rollback", int(restart), 0, lock.token)
    data.pop("lock", None)  # its own
    print_state(connection.label, data)


def command_deploy(args, connection: Connection, config: Path, robot: Robot):
    folder, build_type, from_environment = build_folder(args.build_type)
    scenario = scenario_of(config, args.scenario)
    player = args.player if args.player is not None else robot.player
    state, _ = connection.remote("state")  # reachable? (before a long build)
    proposed = datetime.datetime.now(datetime.timezone.utc).strftime("%Y%m%d-%H%M%S-") + git_version()
    print_state(connection.label, state)
    if state.get("lock") and not args.dry_run:
        raise locked(connection, state["lock"], f"{state['base']}/.deploy.lock")
    if args.dry_run:
        binary = folder / "Src" / "Apps" / "Nao" / "nao"
        how = (f"cmake --build {folder} --target nao" if from_environment
               else f"Make/build {BUILD_TYPES[build_type]} nao")
        print(f"dry run: would {'take' if args.no_build else 'build'} the robot binary ({build_type}, "
              f"{binary if args.no_build else how}) and copy to {connection.label}:")
        print(f"  {state.get('base')}/versions/{proposed}/  bin/nao, bin/run, lib/, Config/ (robot {robot.name}, "
              f"scenario {scenario}, player {player or '-'}{', recording' if args.record else ''}), nao.service, "
              "version.env, MANIFEST")
        if binary.is_file():
            print(f"  lib/: {', '.join(name for name, _ in shared_libraries(binary)) or 'none'} (from the last build)")
        print(f"  then check it (bin/run --check), switch current -> versions/{proposed}"
              f"{', previous -> versions/' + state['current'] if state.get('current') else ''}, "
              f"{'restart nao.service' if args.restart else 'no restart'}, keep the newest {args.keep} versions")
        print("dry run: nothing changed")
        return
    if args.no_build:
        binary = folder / "Src" / "Apps" / "Nao" / "nao"
        if not binary.is_file():
            raise DeployError(f"--no-build: there is no robot binary at {binary}; nothing was copied")
        print(f"not building: the robot binary of {folder} ({build_type})")
    else:
        binary = build(folder, build_type, from_environment)
    libraries = shared_libraries(binary)
    needed = required_glibc([binary] + [path for _, path in libraries])
    if needed and state.get("glibc") and version_tuple(state["glibc"]) < version_tuple(needed):
        raise DeployError(f"{connection.label} has glibc {state['glibc']}, the build needs {needed} or newer; "
                          "nothing was copied")
    with connection.lock("deploy") as lock:
        copy_and_switch(args, connection, config, robot, lock, proposed, binary, libraries, needed, scenario, player,
                        build_type)


def copy_and_switch(args, connection: Connection, config: Path, robot: Robot, lock: RobotLock, proposed: str,
                    binary: Path, libraries, needed: str | None, scenario: str, player, build_type: str):
    """The part of a deploy that changes the robot, under its deploy lock."""
    data, _ = connection.remote("prepare", proposed, lock.token)
    version, base, current = data.get("version", ""), data.get("base", ""), data.get("current", "")
    # Only the name proposed here, or it with the number prepare appends when the name is taken, names a folder.
    if not re.fullmatch(re.escape(proposed) + r"(-[1-9][0-9]*)?", version) or not base:
        raise DeployError(f"{connection.label} answered version '{version}' to 'prepare', not the proposed {proposed} "
                          f"(or {proposed}-N where that name is taken): Make/deploy does not use it (is the robot's "
                          "remote.sh tampered with?); nothing was copied or switched")
    settings = {"NAO_VERSION": version, "NAO_ROBOT": robot.name, "NAO_SCENARIO": scenario,
                "NAO_PLAYER": player or "", "NAO_BUILD": build_type, "NAO_GIT": git_version(),
                "NAO_GLIBC_NEEDED": needed or "", "NAO_RECORD": int(args.record)}
    with tempfile.TemporaryDirectory(prefix="nao-deploy-") as temporary:
        stage = Path(temporary) / version
        stage_version(stage, binary, libraries, config, robot, settings, base)
        size = sum(path.stat().st_size for path in stage.rglob("*") if path.is_file())
        print(f"copying {version} ({size / 1e6:.1f} MB{', unchanged files linked to ' + current if current else ''}) "
              f"to {connection.label}:{base}/versions/.incoming-{version}/", flush=True)
        extra = []
        if current:
            extra.append(f"--link-dest={base}/versions/{current}")
        if args.bwlimit:
            extra.append(f"--bwlimit={args.bwlimit}")
        kept = (f"the robot keeps {current or 'no version'} as current, running and starting at boot; the partial "
                f"copy versions/.incoming-{version} is removed by the next deploy")
        try:
            code = connection.rsync(f"{stage}/", connection.remote_path(f"{base}/versions/.incoming-{version}/"), extra)
        except Stopped as stop:
            stop.note = f"the copy to {connection.label} was stopped: {kept}"
            raise
        if code != 0:
            how = f"rsync killed by signal {-code}" if code < 0 else f"rsync exit code {code}"
            raise DeployError(f"the copy to {connection.label} was interrupted ({how}): {kept}")
    lock.check("the switch")
    try:
        data, _ = connection.remote("finalize", version, int(args.restart), args.keep, lock.token)
    except Stopped as stop:
        stop.note = (f"stopped during the check and switch on {connection.label}: "
                     f"`Make/deploy {robot.name if robot.name != 'Default' else robot.address} --status` "
                     "shows which version is current")
        raise
    running = "running it" if args.restart else f"not restarted (the service runs {data.get('running') or 'nothing'})"
    print(f"deployed {version} to {connection.label} (robot {robot.name}, scenario {scenario}, player {player or '-'}"
          f"{', recording logs' if args.record else ''}); {running}")


def command_setup(robot: Robot, login: str | None, dry_run: bool):
    """The robot-side set-up (setup.sh) for the user the service runs as, logged in as `login` (default: that user)
    and becoming root there. Its output goes straight to the terminal: su may ask for root's password on it."""
    target = Connection(robot)  # the service's user: its limits, lingering and home
    connection = Connection(robot, login) if login else target
    probe = run(connection.ssh_command() + ["--", robot.address, "true"], stdin=subprocess.DEVNULL)
    if probe.returncode != 0:
        raise DeployError(f"robot {connection.label} is unreachable over ssh or refuses the login (ssh's message "
                          "above); nothing was changed")
    print(f"{'dry run: ' if dry_run else ''}set-up of {target.label} for its user {target.user}, logged in as "
          f"{connection.user}:", flush=True)
    command = shlex.join(["bash", "-c", (HERE / "setup.sh").read_text(), "setup", target.user, str(int(dry_run))])
    terminal = not dry_run and sys.stdin.isatty()  # a terminal on the robot too, for su's password prompt
    # In Make/deploy's process group: su's password prompt needs the terminal; a signal is passed on to ssh.
    result = run(connection.ssh_command() + (["-t"] if terminal else []) + ["--", robot.address, command],
                 group=False, stdin=None if terminal else subprocess.DEVNULL)
    if result.returncode == 255:
        raise DeployError(f"lost the connection to {connection.label} during the set-up (ssh's message above); "
                          "run it again: every step looks first and does only what is missing")
    if result.returncode != 0:
        raise DeployError(f"{connection.label}: the set-up failed (message above)")


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="Make/deploy", description="Deploys the robot binary, Config/ and a systemd user unit to "
        "a NAO; rolls back, shows the status, downloads logs, sets a robot up once. See Util/Deploy/README.md.")
    parser.add_argument("robot", nargs="?", help="a robot of Config/Robots/<robot>/network.toml or an address")
    parser.add_argument("build_type", nargs="?", choices=list(BUILD_TYPES),
                        help="Release (default), Develop (RelWithDebInfo) or Debug")
    parser.add_argument("--player", type=int, help="player number (default: network.toml)")
    parser.add_argument("--scenario", help="Config/Scenarios/<scenario>.toml (default: Config/settings.toml)")
    parser.add_argument("--restart", action="store_true", help="restart the service to run the new version")
    parser.add_argument("--record", action="store_true", help="the new version writes a binary log into logs/ on "
                        "every start (the scenario's [Log]; about 1.3 GB per hour)")
    parser.add_argument("--dry-run", action="store_true", help="print what would happen; change nothing")
    parser.add_argument("--no-build", action="store_true", help="deploy the robot binary the build folder has")
    parser.add_argument("--list", action="store_true", help="list the known robots")
    parser.add_argument("--rollback", action="store_true", help="switch back to the previous version")
    parser.add_argument("--status", action="store_true", help="running version, uptime, the service's last lines")
    parser.add_argument("--logs", nargs="?", const="", metavar="DIR",
                        help="download the robot's logs into DIR (default: Build/Logs/<robot>)")
    parser.add_argument("--setup", action="store_true", help="the robot's one-time set-up as root: real-time "
                        "limits, lingering, NAOqi's autostart off, RoboCup mode, a look at LoLA (with --dry-run: "
                        "what it would do)")
    parser.add_argument("--setup-user", metavar="USER", help="--setup: log in as USER (default: the robot's ssh "
                        "user) and become root with sudo or su; USER root logs in as root")
    parser.add_argument("--lines", type=int, default=15, help="--status: lines of the service's output (15)")
    parser.add_argument("--config", type=Path, default=ROOT / "Config", help="the Config/ folder to deploy")
    parser.add_argument("--bwlimit", type=int, metavar="KBPS", help="limit the copy to KBPS kB/s (rsync)")
    parser.add_argument("--keep", type=int, default=5, help="versions kept on the robot (5; never fewer than "
                        "current, previous and the running one)")
    args = parser.parse_intermixed_args(argv)
    modes = [name for name in ("list", "rollback", "status", "setup") if getattr(args, name)] + (
        ["logs"] if args.logs is not None else [])
    if len(modes) > 1:
        parser.error("choose one of --list, --rollback, --status, --logs, --setup")
    if not args.list and not args.robot:
        parser.error("which robot? (Make/deploy --list shows the known ones)")
    if (args.build_type or args.record or args.no_build) and modes:
        parser.error(f"a build type, --record or --no-build goes with a deploy, not with --{modes[0]}")
    if args.setup_user and not args.setup:
        parser.error("--setup-user goes with --setup")
    if args.setup and (args.restart or args.player is not None or args.scenario):
        parser.error("--setup sets the robot up; deploy with --restart, --player or --scenario afterwards")
    if args.player is not None and not 0 < args.player < 100:
        parser.error("--player must be 1..99")
    if args.lines < 1:
        parser.error("--lines must be at least 1")
    if args.keep < 1:
        parser.error("--keep must be at least 1")
    return args


def main(argv) -> int:
    args = parse_arguments(argv)
    # Ctrl-C, kill and a closed terminal end Make/deploy through Stopped, so that its child processes end with it.
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, on_signal)
    try:
        config = args.config.resolve()
        if not (config / "settings.toml").is_file() or not (config / "Robots").is_dir():
            raise DeployError(f"{args.config} is not a Config folder (no settings.toml or Robots/)")
        if args.list:
            command_list(config)
            return 0
        robot = resolve_robot(args.robot, config)
        if args.setup:
            command_setup(robot, args.setup_user, args.dry_run)
            return 0
        connection = Connection(robot)
        if args.status:
            command_status(connection, args.lines)
        elif args.logs is not None:
            name = robot.name if robot.name != "Default" else robot.address
            command_logs(connection, Path(args.logs) if args.logs else ROOT / "Build" / "Logs" / name, args.dry_run)
        elif args.rollback:
            command_rollback(connection, args.restart, args.dry_run)
        else:
            command_deploy(args, connection, config, robot)
        return 0
    except DeployError as error:
        print(f"Make/deploy: {error}", file=sys.stderr)
        return 1
    except Stopped as stop:
        try:
            print(f"Make/deploy: stopped by {signal.Signals(stop.number).name}{': ' + stop.note if stop.note else ''}",
                  file=sys.stderr)
        except OSError:  # the terminal is gone (SIGHUP)
            pass
        return 128 + stop.number


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
