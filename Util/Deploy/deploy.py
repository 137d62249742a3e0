#!/usr/bin/env python3
"""Make/deploy: builds the robot binary (static), copies it with Config/ and a systemd user unit into a new
version folder on a NAO over ssh/rsync, switches `current` to it atomically and restarts the service when asked;
also rolls back, shows the status, downloads logs and does a robot's one-time set-up as root (--setup). Layout and
assumptions: Util/Deploy/README.md.

Environment: NAO_DEPLOY_SSH_CONFIG (an ssh_config file used instead of ~/.ssh/config), NAO_DEPLOY_BUILD_DIR (a
configured CMake build folder used instead of Build/<type>)."""
import argparse
import datetime
import getpass
import hashlib
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import unicodedata
from dataclasses import dataclass
from pathlib import Path

if sys.version_info < (3, 11):
    sys.exit("Make/deploy: needs Python 3.11 or newer (tomllib)")
import tomllib

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BUILD_TYPES = {"Release": "Release", "Develop": "RelWithDebInfo", "Debug": "Debug"}  # ours -> CMake's
# Libraries the robot's own C library provides; every other shared library ships in lib/.
GLIBC = {"linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2",
         "librt.so.1", "libresolv.so.2", "libutil.so.1", "libmvec.so.1"}
NETWORK_KEYS = {"address": str, "user": str, "port": int, "player": int}
SSH_OPTIONS = ["-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=10",
               "-o", "ServerAliveCountMax=3"]  # a dead connection is noticed within 40 s
# A version folder's name: <UTC time>-<git sha>[-dirty], or -nogit outside a git checkout, and -2, -3, ... where
# remote.sh's prepare found the name taken.
VERSION = r"\d{8}-\d{6}-(?:[0-9a-f]{7,40}(?:-dirty)?|nogit)(?:-[1-9][0-9]*)?"
HEARTBEAT_S = 10  # the lock holder on the robot gives the lock up after 45 s without a line from Make/deploy


class DeployError(Exception):
    pass


class Stopped(BaseException):
    """SIGINT, SIGTERM or SIGHUP reached Make/deploy; `note` says what the robot is left with."""

    def __init__(self, number: int):
        super().__init__(number)
        self.number, self.note = number, ""


STOPPING = False


def on_signal(number, _frame):
    """The first signal stops Make/deploy (its child processes are ended on the way out); later ones are ignored
    so that the clean-up runs to its end."""
    global STOPPING
    if not STOPPING:
        STOPPING = True
        raise Stopped(number)


def end(process: subprocess.Popen, group: bool = True):
    """Ends a child process and, with group, every process of its process group (rsync's ssh, a build's compilers):
    SIGTERM, then SIGKILL for what is left after 5 s."""
    for number in (signal.SIGTERM, signal.SIGKILL):
        try:
            if group:
                os.killpg(process.pid, number)
            elif process.poll() is None:
                process.send_signal(number)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            continue
        if not group:
            return


def printable(text: str) -> str:
    """Text from the robot with its control characters (terminal escape sequences, bidirectional overrides)
    shown as \\xNN, so that it cannot rewrite the terminal it is printed to."""
    return "".join(char if char == "\t" or unicodedata.category(char) not in ("Cc", "Cf") else
                   f"\\x{ord(char):02x}" if ord(char) < 256 else f"\\u{ord(char):04x}" for char in text)


def relay(stream, to):
    try:
        for line in stream:
            to.write(printable(line.rstrip("\n")) + "\n")
            to.flush()
    except (OSError, ValueError):  # the terminal is gone (SIGHUP)
        pass


def run(command: list[str], group: bool = True, relay_stderr: bool = False, **options) -> subprocess.CompletedProcess:
    """subprocess.run, with the child in a process group of its own (group): when a signal stops Make/deploy, the
    whole group ends with it, not only the child (rsync's ssh goes too). relay_stderr: the child's stderr (the
    robot's messages) reaches the terminal with its control characters escaped."""
    if relay_stderr:
        options["stderr"] = subprocess.PIPE
        options.setdefault("text", True)
    process = subprocess.Popen(command, process_group=0 if group else None, **options)
    relaying = threading.Thread(target=relay, args=(process.stderr, sys.stderr), daemon=True) if relay_stderr else None
    try:
        if relaying:
            relaying.start()
            stdout = process.stdout.read() if process.stdout else None
            process.wait()
            relaying.join(timeout=5)
            stderr = None
        else:
            stdout, stderr = process.communicate()
    except BaseException:
        end(process, group)
        raise
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


@dataclass
class Robot:
    name: str  # Config/Robots/<name>/ (Default for an address without a network.toml)
    address: str
    user: str | None = None  # None: the ssh config's User for the address, else nao
    port: int | None = None
    player: int | None = None


def rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def load_network(file: Path) -> Robot:
    try:
        with open(file, "rb") as stream:
            table = tomllib.load(stream)
    except tomllib.TOMLDecodeError as error:
        raise DeployError(f"{rel(file)}: {error}") from None
    for key, value in table.items():
        if key not in NETWORK_KEYS:
            raise DeployError(f"{rel(file)}: unknown key '{key}' (known: {', '.join(NETWORK_KEYS)})")
        if not isinstance(value, NETWORK_KEYS[key]) or isinstance(value, bool):
            raise DeployError(f"{rel(file)}: '{key}' must be a {NETWORK_KEYS[key].__name__}, not {value!r}")
    if "address" not in table:
        raise DeployError(f"{rel(file)}: missing key 'address' (the robot's IP address or host name)")
    if "port" in table and not 0 < table["port"] < 65536:
        raise DeployError(f"{rel(file)}: 'port' must be 1..65535, not {table['port']}")
    if "player" in table and not 0 < table["player"] < 100:
        raise DeployError(f"{rel(file)}: 'player' must be 1..99, not {table['player']}")
    return Robot(file.parent.name, table["address"], table.get("user"), table.get("port"), table.get("player"))


def known_robots(config: Path) -> dict[str, Robot]:
    robots = {}
    for folder in sorted((config / "Robots").iterdir()):
        if (folder / "network.toml").is_file():
            robots[folder.name] = load_network(folder / "network.toml")
    return robots


def looks_like_address(text: str) -> bool:
    return text == "localhost" or ":" in text or re.fullmatch(r"[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+", text) is not None


def check_address(robot: Robot) -> Robot:
    """An address goes to ssh and rsync: one word that cannot be taken for an option."""
    if not re.fullmatch(r"[A-Za-z0-9_.:%\[\]-]+", robot.address) or robot.address.startswith("-"):
        raise DeployError(f"robot {robot.name}: address {robot.address!r} is not an IP address or host name")
    return robot


def resolve_robot(argument: str, config: Path) -> Robot:
    robots = known_robots(config)
    if argument in robots:
        return check_address(robots[argument])
    if argument.startswith("-"):
        raise DeployError(f"'{argument}' is not a robot name or address")
    if looks_like_address(argument):
        for robot in robots.values():
            if robot.address == argument:
                return check_address(robot)
        return check_address(Robot("Default", argument))
    known = ", ".join(robots) or "none"
    raise DeployError(f"unknown robot '{argument}': there is no {rel(config / 'Robots' / argument / 'network.toml')} "
                      f"(known robots: {known}); give an IP address or a host name with a dot to deploy by address")


class Connection:
    """ssh and rsync to one robot; every call fails with a DeployError that names the robot."""

    def __init__(self, robot: Robot, login: str | None = None):
        """login: the ssh user (default: the robot's, from network.toml, else the ssh configuration, else nao)."""
        self.robot = robot
        login = login or robot.user
        # The user's ssh configuration (NAO_DEPLOY_SSH_CONFIG, else ~/.ssh/config and the system's) decides first;
        # the generated file adds only the fallback User nao.
        self.temporary = tempfile.TemporaryDirectory(prefix="nao-deploy-ssh-")
        own = os.environ.get("NAO_DEPLOY_SSH_CONFIG")
        includes = [own] if own else [path for path in (str(Path.home() / ".ssh" / "config"), "/etc/ssh/ssh_config")
                                      if Path(path).is_file()]
        config = Path(self.temporary.name) / "ssh_config"
        config.write_text("".join(f'Include "{Path(path).resolve()}"\n' for path in includes) + "Host *\n  User nao\n")
        self.options = SSH_OPTIONS + ["-F", str(config)] + (["-p", str(robot.port)] if robot.port else []) + (
            ["-l", login] if login else [])
        resolved = run(["ssh", "-G", *self.options, robot.address], stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        found = re.search(r"^user (.*)$", resolved.stdout, re.MULTILINE)
        if resolved.returncode != 0 or not found:
            raise DeployError(f"ssh -G {robot.address} (the ssh configuration): {resolved.stderr.strip()}")
        self.user = found.group(1)
        self.label = f"{robot.name if robot.name != 'Default' else robot.address} ({self.user}@{robot.address})"
        self.script = (HERE / "remote.sh").read_text()

    def ssh_command(self) -> list[str]:
        return ["ssh", *self.options]

    def remote_command(self, operation: str, *arguments) -> list[str]:
        command = shlex.join(["bash", "-c", self.script, "remote", operation, *map(str, arguments)])
        return self.ssh_command() + ["--", self.robot.address, command]

    def remote(self, operation: str, *arguments) -> tuple[dict, list[str]]:
        """Runs an operation of remote.sh; returns its @key=value data, checked (check_answers) and with control
        characters escaped, and its @journal lines (escaped)."""
        result = run(self.remote_command(operation, *arguments), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                     text=True, errors="replace", relay_stderr=True)
        if result.returncode == 255:
            raise DeployError(f"robot {self.label} is unreachable over ssh (ssh's message above); nothing was changed"
                              if operation in ("state", "prepare", "status", "lock") else
                              f"lost the connection to {self.label} during '{operation}' (ssh's message above)")
        data, journal = self.parse(result.stdout or "", operation)
        if result.returncode != 0:
            raise DeployError(f"{self.label}: '{operation}' failed on the robot (message above)")
        return data, journal

    def parse(self, output: str, operation: str) -> tuple[dict, list[str]]:
        data, journal = {}, []
        for line in output.splitlines():
            if line.startswith("@journal="):
                journal.append(printable(line[len("@journal="):]))
            elif line.startswith("@") and "=" in line:
                key, value = line[1:].split("=", 1)
                data[key] = value
        self.check_answers(data, operation)
        return {key: printable(value) for key, value in data.items()}, journal

    def check_answers(self, data: dict, operation: str):
        """The robot's answers that end up in a path or a command line must be what remote.sh answers; anything
        else (a tampered or broken robot) stops Make/deploy before it uses the value."""
        rules = {"base": (is_base, "an absolute path of plain names (letters, digits, . _ + @ -), without . or .."),
                 "pid": (str.isdigit, "a process id"), "uptime": (str.isdigit, "a number of seconds"),
                 "glibc": (lambda text: re.fullmatch(r"(\d+(\.\d+)*)?", text), "a glibc version")}
        for key in ("current", "previous", "running"):
            rules[key] = (lambda text: text == "" or is_version(text), "empty or a version name "
                          "(<UTC time>-<git sha>[-dirty][-N])")
        for key, value in data.items():
            if key in rules and not rules[key][0](value):
                after = ("; nothing was copied or switched" if operation in ("state", "prepare", "status", "lock")
                         else "")
                raise DeployError(f"{self.label} answered {key}='{printable(value)}' to '{operation}', which is not "
                                  f"{rules[key][1]}: Make/deploy does not use it (is the robot's remote.sh tampered "
                                  f"with?){after}")

    def rsync(self, source: str, destination: str, extra: list[str]) -> int:
        command = ["rsync", "-a", "-e", shlex.join(self.ssh_command()), *extra, "--", source, destination]
        return run(command, stdin=subprocess.DEVNULL).returncode

    def lock(self, what: str) -> "RobotLock":
        return RobotLock(self, what)

    def remote_path(self, path: str) -> str:
        return f"{self.robot.address}:{path}"


def is_version(text: str) -> bool:
    return re.fullmatch(VERSION, text) is not None


def is_base(text: str) -> bool:
    parts = text.split("/")
    return (len(text) < 1024 and text.startswith("/") and len(parts) > 1 and
            all(re.fullmatch(r"[A-Za-z0-9_.+@-]+", part) and part not in (".", "..") for part in parts[1:]))


def locked(connection: Connection, holder: str, file: str) -> DeployError:
    return DeployError(f"{connection.label} is locked by another deploy: {holder} holds {file}; nothing was changed. "
                       "Wait until it ends (a deploy that was killed or lost its connection frees the lock within a "
                       "minute)")


class RobotLock:
    """The robot's deploy lock, held for a whole deploy or rollback: a session of remote.sh's `lock` on the robot
    holds flock on ~/nao-framework/.deploy.lock while this process sends it a line every HEARTBEAT_S seconds. It
    ends, and the lock with it, when Make/deploy ends in any way (its ssh's stdin closes), when the connection is
    lost or after 45 s without a line. A second deploy to the robot fails at once, naming the holder."""

    def __init__(self, connection: Connection, what: str):
        self.connection, self.token = connection, secrets.token_hex(8)
        host = re.sub(r"[^A-Za-z0-9_.@+-]", "?", f"{getpass.getuser()}@{socket.gethostname()}")
        since = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        self.owner = f"{host}, pid {os.getpid()}, {what} since {since}"
        self.process: subprocess.Popen | None = None
        self.stop = threading.Event()

    def __enter__(self):
        connection = self.connection
        self.process = subprocess.Popen(connection.remote_command("lock", self.owner, self.token),
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, errors="replace", process_group=0)
        try:
            threading.Thread(target=relay, args=(self.process.stderr, sys.stderr), daemon=True).start()
            output = []
            for line in self.process.stdout:
                output.append(line)
                if line.startswith("@locked="):
                    break
            else:
                code = self.process.wait()
                if code == 255:
                    raise DeployError(f"robot {connection.label} is unreachable over ssh (ssh's message above); "
                                      "nothing was changed")
                data, _ = connection.parse("".join(output), "lock")
                if data.get("holder"):
                    raise locked(connection, data["holder"], data.get("lockfile", "~/nao-framework/.deploy.lock"))
                raise DeployError(f"{connection.label}: could not take the robot's deploy lock (message above); "
                                  "nothing was changed")
            threading.Thread(target=self.heartbeat, daemon=True).start()
        except BaseException:
            end(self.process)
            raise
        return self

    def heartbeat(self):
        while not self.stop.wait(HEARTBEAT_S):
            try:
                self.process.stdin.write("\n")
                self.process.stdin.flush()
            except (OSError, ValueError):
                return

    def check(self, before: str):
        """Fails unless the lock is still held (its session on the robot runs)."""
        if self.process.poll() is not None:
            raise DeployError(f"lost the deploy lock of {self.connection.label} (the connection that held it ended) "
                              f"before {before}; run the deploy again")

    def __exit__(self, *_):
        self.stop.set()
        try:
            self.process.stdin.close()  # the holder on the robot sees the end of its input and frees the lock
        except OSError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            end(self.process)
        except BaseException:
            end(self.process)
            raise
        end(self.process)  # nothing is left of its process group


def build_folder(build_type: str | None) -> tuple[Path, str, bool]:
    """The build folder, our build type, and whether the folder comes from NAO_DEPLOY_BUILD_DIR."""
    override = os.environ.get("NAO_DEPLOY_BUILD_DIR")
    if not override:
        build_type = build_type or "Release"
        return ROOT / "Build" / BUILD_TYPES[build_type], build_type, False
    folder = Path(override).resolve()
    cache = folder / "CMakeCache.txt"
    if not cache.is_file():
        raise DeployError(f"NAO_DEPLOY_BUILD_DIR={override} is not a configured CMake build folder (no {cache})")
    found = re.search(r"^CMAKE_BUILD_TYPE:\w+=(.*)$", cache.read_text(), re.MULTILINE)
    cmake_type = found.group(1) if found else ""
    ours = {cmake: name for name, cmake in BUILD_TYPES.items()}.get(cmake_type)
    if ours is None:
        raise DeployError(f"{folder} is a '{cmake_type}' build; deploy takes Release, Develop (RelWithDebInfo) "
                          "or Debug")
    if build_type and build_type != ours:
        wanted = build_type + (f" ({BUILD_TYPES[build_type]})" if BUILD_TYPES[build_type] != build_type else "")
        raise DeployError(f"NAO_DEPLOY_BUILD_DIR={override} is a {cmake_type} build, not {wanted}; "
                          "unset NAO_DEPLOY_BUILD_DIR to build into Build/")
    return folder, ours, True


def build(folder: Path, build_type: str, from_environment: bool) -> Path:
    if from_environment:
        command = ["cmake", "--build", str(folder), "--target", "nao"]
    else:
        command = [str(ROOT / "Make" / "build"), BUILD_TYPES[build_type], "nao"]
    print(f"building the robot binary ({build_type}): {shlex.join(command)}", flush=True)
    if run(command, stdin=subprocess.DEVNULL).returncode != 0:
        raise DeployError(f"the build failed ({shlex.join(command)}); nothing was copied")
    binary = folder / "Src" / "Apps" / "Nao" / "nao"
    if not binary.is_file():
        raise DeployError(f"the build left no robot binary at {binary}")
    return binary


def is_static(binary: Path) -> bool:
    """True for an ELF executable without a program interpreter and without a dynamic section (linked -static)."""
    data = binary.read_bytes()
    if data[:4] != b"\x7fELF" or data[4] != 2:  # 64-bit ELF only (the NAO V6 is x86-64)
        raise DeployError(f"{binary} is not a 64-bit ELF executable")
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    types = {struct.unpack_from("<I", data, phoff + i * phentsize)[0] for i in range(phnum)}
    return not types & {2, 3}  # PT_DYNAMIC, PT_INTERP


def shared_libraries(binary: Path) -> list[tuple[str, Path]]:
    """The shared libraries the binary loads beyond glibc, as found on this machine (none for a static one)."""
    if is_static(binary):
        return []
    result = subprocess.run(["ldd", str(binary)], capture_output=True, text=True)
    if result.returncode != 0:
        raise DeployError(f"ldd {binary} failed: {result.stderr.strip()}")
    libraries = []
    for line in result.stdout.splitlines():
        parts = line.split()
        if not parts or parts[0] in GLIBC or parts[0].startswith("/"):
            continue
        if "not found" in line:
            raise DeployError(f"{binary} needs {parts[0]}, which this machine does not have")
        if len(parts) >= 3 and parts[1] == "=>":
            libraries.append((parts[0], Path(parts[2])))
    return libraries


def required_glibc(files: list[Path]) -> str | None:
    """The newest GLIBC_x.y symbol version the files need (objdump from binutils), or None without objdump."""
    if not shutil.which("objdump"):
        return None
    newest = (0, 0)
    for file in files:
        output = subprocess.run(["objdump", "-T", str(file)], capture_output=True, text=True).stdout
        for major, minor in re.findall(r"\bGLIBC_(\d+)\.(\d+)", output):
            newest = max(newest, (int(major), int(minor)))
    return f"{newest[0]}.{newest[1]}" if newest != (0, 0) else None


def version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:2])


def git_version() -> str:
    def git(*arguments):
        return subprocess.run(["git", "-C", str(ROOT), *arguments], capture_output=True, text=True)

    head = git("rev-parse", "--short=7", "HEAD")
    if head.returncode != 0:
        return "nogit"
    dirty = git("status", "--porcelain", "--untracked-files=no").stdout.strip()
    return head.stdout.strip() + ("-dirty" if dirty else "")


def copy_config(source: Path, destination: Path, robot: str):
    """Config/ without the simulator's files and without other robots' overlays. Of Config/Sim/ only motors.toml
    goes along: it is the one table of the motors' torques, which SmartStiffnessProvider reads on the robot too."""

    def ignore(folder, names):
        folder = Path(folder)
        if folder == source / "Sim":
            return [name for name in names if name != "motors.toml"]
        if folder == source / "Robots":
            return [name for name in names if name not in ("Default", robot)]
        return [name for name in names if name.endswith("~") or name.startswith(".#")]

    shutil.copytree(source, destination, ignore=ignore)


def write_manifest(stage: Path):
    lines = []
    for file in sorted(path for path in stage.rglob("*") if path.is_file()):
        digest = hashlib.sha256(file.read_bytes()).hexdigest()
        lines.append(f"{digest}  {file.relative_to(stage).as_posix()}\n")
    (stage / "MANIFEST").write_text("".join(lines))


def stage_version(stage: Path, binary: Path, libraries, config: Path, robot: Robot, settings: dict, base: str):
    (stage / "bin").mkdir(parents=True)
    (stage / "lib").mkdir()
    shutil.copy2(binary, stage / "bin" / "nao")
    shutil.copy2(HERE / "run", stage / "bin" / "run")
    for name, path in libraries:
        shutil.copy2(path, stage / "lib" / name)  # follows the symbolic link: the file under its soname
    copy_config(config, stage / "Config", robot.name)
    unit = (HERE / "nao.service.in").read_text().replace("@BASE@", base).replace("@VERSION@", settings["NAO_VERSION"])
    (stage / "nao.service").write_text(unit)
    (stage / "version.env").write_text(
        "# Written by Make/deploy; bin/run reads it.\n" +
        "".join(f"{key}={shlex.quote(str(value))}\n" for key, value in settings.items()))
    write_manifest(stage)


def scenario_of(config: Path, requested: str | None) -> str:
    if requested:
        scenario = requested
    else:
        try:
            with open(config / "settings.toml", "rb") as stream:
                scenario = tomllib.load(stream).get("scenario", "")
        except (OSError, tomllib.TOMLDecodeError) as error:
            raise DeployError(f"{rel(config / 'settings.toml')}: {error}") from None
    # default.toml holds the [Motion] table every scenario overlays; it is not a scenario to run.
    scenarios = sorted(path.stem for path in (config / "Scenarios").glob("*.toml") if path.stem != "default")
    if scenario not in scenarios:
        known = ", ".join(scenarios)
        what = ("the [Motion] table the scenarios share, not a scenario" if scenario == "default"
                else f"there is no {rel(config / 'Scenarios' / (scenario + '.toml'))}")
        raise DeployError(f"scenario '{scenario}': {what} (scenarios: {known})")
    return scenario


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
