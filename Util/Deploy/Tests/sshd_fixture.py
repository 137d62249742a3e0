"""The fake robot the deploy tests talk to over ssh, shared by deploy_test.py and setup_test.py.

Starts Debian's sshd as the current user on a free 127.0.0.1 port (config, host key and a throwaway client key in a
temporary folder; UsePAM no, StrictModes no) whose sessions get a fake robot home (HOME), the given folders first on
PATH and any further environment. An ssh client configuration maps the example robot's address
(Config/Robots/Nao01/network.toml) to that sshd and a second address to a closed port (an unreachable robot), so
that Make/deploy runs unchanged with NAO_DEPLOY_SSH_CONFIG pointing at it."""
import argparse
import getpass
import os
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

ADDRESS = "10.0.24.11"  # Config/Robots/Nao01/network.toml
DEAD_ADDRESS = "10.0.24.99"  # mapped to a closed port: an unreachable robot


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class SshdFixture:
    """sshd for a fake robot at `address` whose home is `robot_home`; `path` goes first on the sessions' PATH,
    `environment` into their environment (sshd's SetEnv). After start(): `env` is the environment Make/deploy runs
    in (its own fake local HOME, NAO_DEPLOY_SSH_CONFIG), `robot_env` the fake robot's environment for commands the
    test runs on the robot side directly."""

    def __init__(self, temporary: Path, robot_home: Path, path: list[Path], environment: dict[str, str] | None = None,
                 address: str = ADDRESS):
        self.tmp, self.robot_home, self.path, self.address = temporary, robot_home, path, address
        self.environment = environment or {}
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.user = getpass.getuser()
        self.env: dict[str, str] = {}
        self.robot_env: dict[str, str] = {}

    def start(self):
        for tool in ("/usr/sbin/sshd", "ssh", "ssh-keygen"):
            check(shutil.which(tool), f"{tool} is missing: run Make/install-deps (openssh-server, openssh-client)")
        self.robot_home.mkdir(exist_ok=True)
        (self.tmp / "local-home").mkdir(exist_ok=True)
        for key in ("host_key", "user_key"):
            subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "deploy-test", "-f",
                            str(self.tmp / key)], check=True)
        shutil.copy(self.tmp / "user_key.pub", self.tmp / "authorized_keys")
        if os.geteuid() == 0 and not Path("/run/sshd").is_dir():
            # sshd started by root needs its privilege-separation folder (Debian's ssh.service makes it at boot).
            os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        self.port, dead_port = free_port(), free_port()
        robot_path = ":".join(str(folder) for folder in self.path) + ":/usr/local/bin:/usr/bin:/bin"
        variables = {"HOME": str(self.robot_home), "PATH": robot_path, **self.environment}
        for name, value in variables.items():
            check(re.fullmatch(r"[^\s\"'\\]*", value), f"sshd SetEnv cannot carry {name}={value!r}")
        config = self.tmp / "sshd_config"
        config.write_text(f"""ListenAddress 127.0.0.1
Port {self.port}
HostKey {self.tmp}/host_key
PidFile {self.tmp}/sshd.pid
AuthorizedKeysFile {self.tmp}/authorized_keys
UsePAM no
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
SetEnv {' '.join(f'{name}={value}' for name, value in variables.items())}
""")
        test = subprocess.run(["/usr/sbin/sshd", "-t", "-f", str(config)], capture_output=True, text=True)
        check(test.returncode == 0, f"sshd -t rejects {config}: {test.stderr.strip()}")
        self.process = subprocess.Popen(["/usr/sbin/sshd", "-D", "-e", "-f", str(config), "-E",
                                         str(self.tmp / "sshd.log")])
        deadline = time.monotonic() + 10
        while True:
            check(self.process.poll() is None, f"sshd exited ({self.process.returncode}): {self.log()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                check(time.monotonic() < deadline, f"sshd does not listen on port {self.port}: {self.log()}")
                time.sleep(0.1)
        client = self.tmp / "ssh_config"
        common = f"""  User {self.user}
  IdentityFile {self.tmp}/user_key
  IdentitiesOnly yes
  UserKnownHostsFile {self.tmp}/known_hosts
  StrictHostKeyChecking accept-new
"""
        client.write_text(f"Host {self.address}\n  HostName 127.0.0.1\n  Port {self.port}\n{common}"
                          f"Host {DEAD_ADDRESS}\n  HostName 127.0.0.1\n  Port {dead_port}\n{common}")
        self.env = dict(os.environ, NAO_DEPLOY_SSH_CONFIG=str(client), HOME=str(self.tmp / "local-home"))
        self.robot_env = dict(os.environ, **self.environment, HOME=str(self.robot_home),
                              PATH=":".join(str(folder) for folder in self.path) + ":" +
                              os.environ.get("PATH", "/usr/bin:/bin"))
        print(f"sshd (pid {self.process.pid}) on 127.0.0.1:{self.port} as {self.user}; robot home {self.robot_home}")

    def log(self) -> str:
        log = self.tmp / "sshd.log"
        return log.read_text().strip() if log.exists() else "(no log)"

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def readme_commands(readme: Path) -> set[str]:
    """The Make/deploy command lines of the ```sh blocks of a README, normalised (comments dropped)."""
    shown = set()
    for block in re.findall(r"```sh\n(.*?)```", readme.read_text(), re.DOTALL):
        for line in block.splitlines():
            if line.strip().startswith("Make/deploy"):
                shown.add(shlex.join(shlex.split(line, comments=True)))
    return shown


def run_test_program(name: str, description: str, make_test, body, add_arguments=None) -> int:
    """The main() of a deploy test program: --source-dir, --build-dir, --keep-temporary (and what add_arguments
    adds to the parser); make_test(source, build, temporary) builds the test, body(test, args) runs it. A failure
    prints the logs of the test's sshds (test.sshds()); test.cleanup() runs whatever happened."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--source-dir", type=Path, default=Path(__file__).resolve().parents[3])
    parser.add_argument("--build-dir", type=Path, required=True, help="the CMake build folder with the robot binary")
    parser.add_argument("--keep-temporary", action="store_true", help="keep the temporary folder for inspection")
    if add_arguments:
        add_arguments(parser)
    args = parser.parse_args()
    temporary = Path(tempfile.mkdtemp(prefix=f"nao-{name}-"))
    test = make_test(args.source_dir.resolve(), args.build_dir.resolve(), temporary)
    started = time.monotonic()
    try:
        body(test, args)
        print(f"\n{name} passed in {time.monotonic() - started:.0f} s")
        return 0
    except (Failure, subprocess.SubprocessError, OSError) as error:
        print(f"\n{name} FAILED: {error}")
        for sshd in test.sshds():
            if sshd.process:
                print(f"sshd log ({sshd.address}):\n{sshd.log()}")
        return 1
    finally:
        test.cleanup()
        if args.keep_temporary:
            print(f"kept {temporary}")
        else:
            shutil.rmtree(temporary, ignore_errors=True)
