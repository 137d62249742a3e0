#!/usr/bin/env python3
"""DeployTests: Make/deploy against a real sshd, no robot needed.

The fake robot is sshd_fixture.py's: Debian's sshd as the current user on a free 127.0.0.1 port whose sessions get a
fake robot home (HOME) and, first on PATH, the systemctl/journalctl/getconf stand-ins of robot-stand-ins/ (systemd
cannot run here: they start the installed unit's ExecStart= command line; the unit itself is checked with the real
`systemd-analyze verify`). An ssh client config maps the example robot's address (Config/Robots/Nao01/network.toml)
to that sshd, so the commands of Util/Deploy/README.md run unchanged; the test fails if one of them was not run (the
--setup lines are setup_test.py's). Any failing step fails the test with the reason."""
import ctypes
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from sshd_fixture import ADDRESS, DEAD_ADDRESS, Failure, SshdFixture, check, readme_commands, run_test_program

HERE = Path(__file__).resolve().parent
STAND_INS = HERE / "robot-stand-ins"  # systemctl, journalctl, getconf of the fake robot
UNIT = "nao.service"


class LinkWatch:
    """inotify on the folders of the links Make/deploy switches: an atomic switch renames a new link over the old one
    (IN_MOVED_TO); a link that is ever deleted or created in place (IN_DELETE, IN_CREATE) had a window without it."""
    IN_MOVED_TO, IN_CREATE, IN_DELETE = 0x80, 0x100, 0x200

    def __init__(self, *folders: Path):
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self.libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        check(self.fd >= 0, f"inotify_init1: {os.strerror(ctypes.get_errno())}")
        for folder in folders:
            mask = self.IN_MOVED_TO | self.IN_CREATE | self.IN_DELETE
            check(self.libc.inotify_add_watch(self.fd, str(folder).encode(), mask) >= 0,
                  f"inotify_add_watch {folder}: {os.strerror(ctypes.get_errno())}")

    def events(self) -> list[tuple[int, str]]:
        found = []
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return found
            offset = 0
            while offset < len(data):
                _, mask, _, length = ctypes.c_int.from_buffer_copy(data, offset).value, *[
                    ctypes.c_uint32.from_buffer_copy(data, offset + 4 + 4 * i).value for i in range(3)]
                name = data[offset + 16:offset + 16 + length].split(b"\0", 1)[0].decode()
                found.append((mask, name))
                offset += 16 + length

    def check_switched(self, what: str, names=("current", "previous", "nao.service")):
        events = self.events()
        broken = [(hex(mask), name) for mask, name in events
                  if name in names and mask & (self.IN_CREATE | self.IN_DELETE)]
        check(not broken, f"{what}: a link was deleted or created in place, not renamed over: {broken}")
        check((self.IN_MOVED_TO, "current") in events, f"{what}: current was not renamed into place ({events})")
        print(f"{what}: current renamed into place; no link ever missing")


class DeployTest:
    def __init__(self, source: Path, build: Path, temporary: Path):
        self.source, self.build, self.tmp = source, build, temporary
        self.robot_home = temporary / "robot-home"  # the fake robot's /home/nao
        self.base = self.robot_home / "nao-framework"
        self.work = temporary / "work"  # the current directory of the commands
        self.ran: set[str] = set()
        self.sshd = SshdFixture(temporary, self.robot_home, [STAND_INS])
        self.cache = (build / "CMakeCache.txt").read_text() if (build / "CMakeCache.txt").is_file() else ""
        found = re.search(r"^CMAKE_BUILD_TYPE:\w+=(.*)$", self.cache, re.MULTILINE)
        self.build_type = {"Release": "Release", "RelWithDebInfo": "Develop", "Debug": "Debug"}.get(
            found.group(1) if found else "", "")

    # --- set-up -----------------------------------------------------------------------------------------------
    def start_sshd(self):
        for tool in ("rsync", "systemd-analyze", "ldd"):
            check(shutil.which(tool), f"{tool} is missing: run Make/install-deps (rsync, systemd)")
        check(self.build_type, f"{self.build} is not a configured Release/RelWithDebInfo/Debug build folder")
        self.work.mkdir()
        self.sshd.start()
        self.env = dict(self.sshd.env, NAO_DEPLOY_BUILD_DIR=str(self.build))
        self.robot_env = self.sshd.robot_env

    def sshd_log(self) -> str:
        return self.sshd.log()

    def sshds(self) -> list[SshdFixture]:
        return [self.sshd]

    # --- helpers ----------------------------------------------------------------------------------------------
    def deploy(self, command: str, ok=True, env=None, timeout=240) -> str:
        """Runs a Make/deploy command line as a user types it (in self.work); returns its output."""
        argv = shlex.split(command, comments=True)
        check(argv[0] == "Make/deploy", f"not a Make/deploy command: {command}")
        self.ran.add(shlex.join(argv))
        print(f"\n$ {command}", flush=True)
        started = time.monotonic()
        result = subprocess.run([str(self.source / "Make" / "deploy")] + argv[1:], cwd=self.work,
                                env=env or self.env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, timeout=timeout)
        print("".join(f"  | {line}\n" for line in result.stdout.splitlines()), end="")
        print(f"  (exit code {result.returncode}, {time.monotonic() - started:.1f} s)", flush=True)
        if ok:
            check(result.returncode == 0, f"'{command}' failed with exit code {result.returncode}")
        else:
            check(result.returncode != 0, f"'{command}' should have failed")
        return result.stdout

    def link(self, name: str) -> str:
        path = self.base / name
        return os.path.basename(os.readlink(path)) if path.is_symlink() else ""

    def versions(self) -> set[str]:
        folder = self.base / "versions"
        return {path.name for path in folder.iterdir()} if folder.is_dir() else set()

    def service(self) -> tuple[int, str]:
        """(pid, version it runs) of the unit the systemctl stand-in started, or (0, "")."""
        pid_file = self.robot_home / ".fake-systemd" / f"{UNIT}.pid"
        if not pid_file.exists():
            return 0, ""
        pid = int(pid_file.read_text())
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            exe = os.readlink(f"/proc/{pid}/exe")
        except OSError:
            return 0, ""
        if state in ("Z", "X"):
            return 0, ""
        found = re.fullmatch(re.escape(str(self.base / "versions")) + r"/([^/]+)/bin/nao( \(deleted\))?", exe)
        return pid, found.group(1) if found else f"(not a deployed version: {exe})"

    def wait_running(self, version: str, pid_other_than: int = 0) -> int:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            pid, running = self.service()
            if pid and pid != pid_other_than and running == version:
                return pid
            time.sleep(0.1)
        raise Failure(f"the service does not run {version} (runs {self.service()}); journal:\n{self.journal()}")

    def journal(self) -> str:
        path = self.robot_home / ".fake-systemd" / f"{UNIT}.journal"
        return path.read_text(errors="replace") if path.exists() else ""

    def systemctl(self, *arguments):
        subprocess.run([str(STAND_INS / "systemctl"), "--user", *arguments], env=self.robot_env, check=True)

    def snapshot(self) -> dict:
        """The fake robot's files; the running binary's log and output count by name only (they grow)."""
        files = {}
        for folder, folders, names in os.walk(self.robot_home):
            for name in folders + names:
                path = Path(folder) / name
                relative = str(path.relative_to(self.robot_home))
                if path.is_symlink():
                    files[relative] = ("link", os.readlink(path))
                elif path.is_dir():
                    files[relative] = ("folder",)
                elif relative.startswith(("nao-framework/logs/", ".fake-systemd/")):
                    files[relative] = ("file",)
                else:
                    stat = path.stat()
                    files[relative] = ("file", stat.st_size, stat.st_mtime_ns)
        return files

    def unchanged(self, before: dict, what: str):
        after = self.snapshot()
        changed = sorted(set(before.items()) ^ set(after.items()))
        check(not changed, f"{what} changed the robot: {changed[:10]}")

    # --- the scenario -----------------------------------------------------------------------------------------
    def run(self):
        self.start_sshd()
        other_type = "Debug" if self.build_type != "Debug" else "Release"

        out = self.deploy("Make/deploy --list")
        check(re.search(r"Nao01\s+10\.0\.24\.11", out), "--list does not show Nao01 at 10.0.24.11")

        empty = self.snapshot()
        out = self.deploy("Make/deploy Nao99", ok=False)
        check("unknown robot 'Nao99'" in out and "Config/Robots/Nao99/network.toml" in out,
              "no clear unknown-robot error")
        out = self.deploy(f"Make/deploy {DEAD_ADDRESS} --restart", ok=False)
        check("unreachable" in out and "nothing was changed" in out, "no clear unreachable-robot error")
        out = self.deploy("Make/deploy Nao01 --scenario nosuch", ok=False)
        check("scenario 'nosuch'" in out and "stand" in out, "no clear unknown-scenario error")
        out = self.deploy(f"Make/deploy Nao01 {other_type}", ok=False)
        check(f"not {other_type}" in out, "a build type other than NAO_DEPLOY_BUILD_DIR's is not refused")
        # The NAO's own OS: glibc 2.29. A dynamic robot binary (-DNAO_STATIC_ROBOT_BINARY=OFF; here a build folder
        # whose "nao" is the host's dynamic /bin/ls) needs a newer one and is refused before anything is copied.
        (self.robot_home / ".fake-glibc").write_text("2.29\n")
        dynamic = self.tmp / "dynamic-build"
        (dynamic / "Src" / "Apps" / "Nao").mkdir(parents=True)
        (dynamic / "CMakeCache.txt").write_text("CMAKE_BUILD_TYPE:STRING=Release\n")
        shutil.copy2("/bin/ls", dynamic / "Src" / "Apps" / "Nao" / "nao")
        empty = self.snapshot()
        out = self.deploy("Make/deploy Nao01 --no-build --restart", ok=False,
                          env=dict(self.env, NAO_DEPLOY_BUILD_DIR=str(dynamic)))
        check("has glibc 2.29, the build needs" in out and "nothing was copied" in out,
              "a dynamic binary needing a newer glibc than the robot's is not refused")
        self.unchanged(empty, "a robot with an old glibc")
        empty = self.snapshot()
        out = self.deploy("Make/deploy Nao01 --dry-run")
        check("dry run: nothing changed" in out and "would build" in out, "--dry-run does not say what it would do")
        no_build_dir = {key: value for key, value in self.env.items() if key != "NAO_DEPLOY_BUILD_DIR"}
        out = self.deploy("Make/deploy Nao01 Develop --dry-run", env=no_build_dir)
        check("Make/build RelWithDebInfo nao" in out, "Develop does not map to a RelWithDebInfo build")
        self.unchanged(empty, "an unknown robot, an unreachable robot, a bad scenario, a bad build type or --dry-run")

        # First deploy: no restart.
        out = self.deploy("Make/deploy Nao01")
        v1 = self.link("current")
        check(v1 and self.versions() == {v1}, f"after the first deploy: current={v1!r}, versions={self.versions()}")
        folder = self.base / "versions" / v1
        for relative in ("bin/nao", "bin/run", "Config/settings.toml", "Config/Robots/Default",
                         "Config/Robots/Nao01/network.toml", "Config/Scenarios/stand.toml", "nao.service",
                         "version.env", "MANIFEST"):
            check((folder / relative).exists(), f"{relative} is missing from {folder}")
        check(not (folder / "Config" / "Sim" / "physics.toml").exists(), "Config/Sim (simulator only) was deployed")
        check((folder / "Config" / "Sim" / "motors.toml").exists(), "Config/Sim/motors.toml is missing")
        check(self.service() == (0, ""), "the service was started without --restart")
        env = (folder / "version.env").read_text()
        check("NAO_ROBOT=Nao01" in env and "NAO_PLAYER=1" in env and "NAO_SCENARIO=standin" in env,
              f"version.env: {env}")
        self.check_libraries(folder)
        self.check_unit(v1)
        (self.robot_home / ".fake-glibc").unlink()  # the first deploy went to a robot with glibc 2.29

        unit_folder = self.robot_home / ".config" / "systemd" / "user"
        watch = LinkWatch(self.base, unit_folder, unit_folder / "default.target.wants")

        # Robot-local files, written on the robot between deploys: a bench without LoLA runs the stand-in body.
        (self.base / "local" / "args").write_text(
            "# bench: no LoLA here\n--body standin --frames=100000  # 20 minutes\n--realtime\n\n--no-debug\n")
        (self.base / "local" / "notes.txt").write_text("left knee replaced\n")
        (self.base / "logs" / "keep-me.txt").write_text("a robot-local file in logs/\n")
        local_before = {path: path.read_text() for path in ((self.base / "local" / "args"),
                                                            (self.base / "local" / "notes.txt"),
                                                            (self.base / "logs" / "keep-me.txt"))}

        # Second deploy: other player and scenario, restart.
        out = self.deploy("Make/deploy Nao01 --player 2 --scenario stand --record --restart")
        v2 = self.link("current")
        check(v2 != v1 and self.link("previous") == v1, f"current={v2}, previous={self.link('previous')}")
        watch.check_switched("deploy")
        for relative in ("bin/nao", "Config/settings.toml"):
            check((self.base / "versions" / v2 / relative).stat().st_nlink >= 2,
                  f"{relative} was copied again instead of hard-linked to the unchanged file of {v1}")
        pid2 = self.wait_running(v2)
        check("scenario 'stand', body StandIn" in self.journal(), f"unexpected output:\n{self.journal()}")
        environment = Path(f"/proc/{pid2}/environ").read_bytes().split(b"\0")
        check(b"NAO_PLAYER=2" in environment, "the binary does not get NAO_PLAYER=2")
        maps = Path(f"/proc/{pid2}/maps").read_text()
        check(not re.search(r"\.so[.\s]", maps), "the running (static) binary maps a shared library")
        command_line = Path(f"/proc/{pid2}/cmdline").read_text().replace("\0", " ")
        check("--frames=100000" in command_line, "local/args are not passed to the binary")
        check("--motion-priority 40" in command_line, "the robot's motion thread is not asked to run real-time")
        self.check_local(local_before)
        logs = sorted(path.name for path in (self.base / "logs").glob("*.log"))
        check(any(v2 in name for name in logs), f"no log of the running binary in logs/: {logs}")

        out = self.deploy("Make/deploy Nao01 --status")
        check(v2 in out and f"pid {pid2}" in out and re.search(r"up \dh \d\dm \d\ds", out)
              and "scenario 'stand', body StandIn" in out, "--status lacks version, pid, uptime or output")
        out = self.deploy(f"Make/deploy {ADDRESS} --status")
        check("Nao01" in out and v2 in out, "an address is not resolved to its robot")

        # Rollback.
        before = self.snapshot()
        out = self.deploy("Make/deploy Nao01 --rollback --dry-run")
        check(f"would switch current from {v2} to {v1}" in out, "--rollback --dry-run does not say what it would do")
        self.unchanged(before, "--rollback --dry-run")
        self.deploy("Make/deploy Nao01 --rollback --restart")
        watch.check_switched("rollback")
        check(self.link("current") == v1 and self.link("previous") == v2, "rollback did not swap current/previous")
        pid1 = self.wait_running(v1, pid_other_than=pid2)
        self.check_unit(v1)

        # An interrupted copy: a config with a large new file, the copy slowed down, rsync killed mid-way.
        big_config = self.tmp / "big" / "Config"
        shutil.copytree(self.source / "Config", big_config)
        (big_config / "Robots" / "Nao01" / "large.bin").write_bytes(os.urandom(6_000_000))
        self.interrupted_copy(f"Make/deploy Nao01 --config {big_config} --bwlimit 500 --restart")
        check(self.link("current") == v1, f"after the interrupted copy current is {self.link('current')}, not {v1}")
        check(self.service() == (pid1, v1), f"the interrupted copy disturbed the service: {self.service()}")
        check(any(path.name.startswith(".incoming-") for path in (self.base / "versions").iterdir()),
              "the interrupted copy left no partial folder (was it interrupted?)")
        self.systemctl("fake-reboot")  # the next boot starts the old version
        self.wait_running(v1, pid_other_than=pid1)

        # The next deploy removes the partial copy; robot-local files and logs survive.
        out = self.deploy("Make/deploy Nao01 --restart")
        check("removed an interrupted copy" in out, "the next deploy does not remove the interrupted copy")
        v3 = self.link("current")
        check(not any(name.startswith(".incoming-") for name in self.versions()), "a partial copy is left")
        check(self.link("previous") == v1 and self.versions() == {v1, v2, v3}, f"versions: {self.versions()}")
        pid3 = self.wait_running(v3)
        self.check_local(local_before)

        # Pruning keeps current, previous and the running version.
        out = self.deploy("Make/deploy Nao01 --no-build --keep 2")
        check("not building" in out, "--no-build built")
        v4 = self.link("current")
        check(self.versions() == {v4, v3}, f"--keep 2 left {self.versions()}, expected {{{v4}, {v3}}}")
        check(self.service() == (pid3, v3), "pruning disturbed the running version")
        out = self.deploy("Make/deploy Nao01 --status")
        check(f"running {v3}" in out and "not current" in out, "--status does not say that current is not running")

        # Logs.
        before = self.snapshot()
        default_logs = self.source / "Build" / "Logs" / "Nao01"
        existed = default_logs.exists()
        out = self.deploy("Make/deploy Nao01 --logs --dry-run")
        check(existed or not default_logs.exists(), f"--logs --dry-run created {default_logs}")
        check(str(self.source / "Build" / "Logs" / "Nao01") in out and "nothing changed" in out,
              "--logs --dry-run does not name the default folder Build/Logs/Nao01")
        self.unchanged(before, "--logs --dry-run")
        self.deploy("Make/deploy Nao01 --logs Nao01-logs")
        downloaded = {path.name for path in (self.work / "Nao01-logs").iterdir()}
        on_robot = {path.name for path in (self.base / "logs").iterdir()}
        check(on_robot <= downloaded and "journal.txt" in downloaded, f"downloaded {downloaded}, robot has {on_robot}")
        check([name for name in downloaded if name.endswith(f"{v2}.log")] and
              not [name for name in downloaded if name.endswith((f"{v1}.log", f"{v3}.log"))],
              f"logs/ should hold the log of {v2} (--record) only: {downloaded}")
        check("scenario 'standin', body StandIn" in (self.work / "Nao01-logs" / "journal.txt").read_text(),
              "journal.txt lacks the service's output")

        self.check_readme()

    def interrupted_copy(self, command: str):
        argv = shlex.split(command)
        self.ran.add(shlex.join(argv))
        print(f"\n$ {command}   # rsync is killed mid-way", flush=True)
        output = self.tmp / "interrupted.out"
        with open(output, "w") as stream:
            deploy = subprocess.Popen([str(self.source / "Make" / "deploy")] + argv[1:], cwd=self.work, env=self.env,
                                      stdin=subprocess.DEVNULL, stdout=stream, stderr=subprocess.STDOUT)
        try:
            deadline, killed = time.monotonic() + 120, False
            while not killed:
                check(deploy.poll() is None, f"the deploy ended before rsync was killed:\n{output.read_text()}")
                check(time.monotonic() < deadline, "rsync did not start copying within 120 s")
                rsync = [pid for pid in os.listdir("/proc") if pid.isdigit() and self.parent_and_name(pid) ==
                         (deploy.pid, "rsync")]
                if rsync and self.incoming_bytes() > 200_000:
                    os.kill(int(rsync[0]), signal.SIGKILL)
                    killed = True
                time.sleep(0.05)
            code = deploy.wait(timeout=60)
        finally:
            if deploy.poll() is None:
                deploy.kill()
        text = output.read_text()
        print("".join(f"  | {line}\n" for line in text.splitlines()), end="")
        print(f"  (exit code {code})")
        check(code != 0 and "interrupted" in text, "an interrupted copy is not reported as a failure")

    def incoming_bytes(self) -> int:
        total = 0
        for folder in (self.base / "versions").glob(".incoming-*"):
            for path in folder.rglob("*"):
                try:
                    total += path.stat().st_size if path.is_file() and not path.is_symlink() else 0
                except OSError:
                    pass
        return total

    @staticmethod
    def parent_and_name(pid: str):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            return int(stat.rsplit(")", 1)[1].split()[1]), stat[stat.index("(") + 1:stat.rindex(")")]
        except (OSError, ValueError, IndexError):
            return None

    def check_libraries(self, folder: Path):
        """The robot binary is static (ldd: not dynamic), so the version's lib/ is empty and it needs no glibc."""
        result = subprocess.run(["ldd", str(folder / "bin" / "nao")], capture_output=True, text=True)
        check("not a dynamic executable" in result.stdout + result.stderr, f"ldd: {result.stdout}{result.stderr}")
        check(not any((folder / "lib").iterdir()), f"lib/ is not empty: {list((folder / 'lib').iterdir())}")
        check("NAO_GLIBC_NEEDED=''" in (folder / "version.env").read_text(), "version.env names a glibc")

    def check_unit(self, version: str):
        unit = self.robot_home / ".config" / "systemd" / "user" / UNIT
        check(unit.is_symlink() and unit.resolve() == (self.base / "versions" / version / UNIT).resolve(),
              f"{unit} does not lead to versions/{version}/{UNIT}")
        wants = unit.parent / "default.target.wants" / UNIT
        check(wants.is_symlink() and wants.resolve() == unit.resolve(), "the unit is not enabled (default.target)")
        runtime = self.tmp / "xdg-runtime"
        runtime.mkdir(mode=0o700, exist_ok=True)
        result = subprocess.run(["systemd-analyze", "--user", "verify", str(unit)], capture_output=True, text=True,
                                env=dict(os.environ, HOME=str(self.robot_home), XDG_RUNTIME_DIR=str(runtime)))
        print(f"systemd-analyze --user verify {unit}: exit code {result.returncode}"
              f"{', ' + (result.stdout + result.stderr).strip() if (result.stdout + result.stderr).strip() else ''}")
        check(result.returncode == 0 and not (result.stdout + result.stderr).strip(),
              f"systemd-analyze verify: {result.stdout}{result.stderr}")
        text = unit.read_text()
        check(f"ExecStart={self.base}/current/bin/run" in text and "Restart=always" in text,
              f"unexpected unit:\n{text}")

    def check_local(self, before: dict):
        for path, text in before.items():
            check(path.exists() and path.read_text() == text, f"robot-local file {path} did not survive the deploy")

    def check_readme(self):
        shown = {command for command in readme_commands(HERE.parent / "README.md")
                 if "--setup" not in shlex.split(command)}  # setup_test.py runs the --setup lines
        missing = sorted(shown - self.ran)
        check(shown and not missing, f"commands of Util/Deploy/README.md the test did not run: {missing}")
        print(f"\nall {len(shown)} Make/deploy commands of Util/Deploy/README.md (but --setup) were run")

    def cleanup(self):
        try:
            if (self.robot_home / ".fake-systemd").exists():
                self.systemctl("stop", UNIT)
        except (subprocess.CalledProcessError, OSError) as error:
            print(f"cleanup: {error}")
        for pid in (pid for pid in os.listdir("/proc") if pid.isdigit()):  # anything still running from the fake robot
            try:
                if os.readlink(f"/proc/{pid}/exe").startswith(str(self.base)):
                    os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass
        self.sshd.stop()


def main() -> int:
    return run_test_program("DeployTests", __doc__, DeployTest, lambda test, args: test.run())


if __name__ == "__main__":
    sys.exit(main())
