"""The robots Make/deploy knows (Config/Robots/<name>/network.toml), the ssh connection to one, what it answers
(checked before use: a robot may lie) and the deploy lock held on it."""
import datetime
import getpass
import os
import re
import secrets
import shlex
import socket
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import tomllib

from processes import DeployError, end, printable, relay, run

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
NETWORK_KEYS = {"address": str, "user": str, "port": int, "player": int}
SSH_OPTIONS = ["-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=10",
               "-o", "ServerAliveCountMax=3"]  # a dead connection is noticed within 40 s
# A version folder's name: <UTC time>-<git sha>[-dirty], or -nogit outside a git checkout, and -2, -3, ... where
# remote.sh's prepare found the name taken.
VERSION = r"\d{8}-\d{6}-(?:[0-9a-f]{7,40}(?:-dirty)?|nogit)(?:-[1-9][0-9]*)?"
HEARTBEAT_S = 10  # the lock holder on the robot gives the lock up after 45 s without a line from Make/deploy


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
