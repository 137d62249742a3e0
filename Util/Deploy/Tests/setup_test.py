#!/usr/bin/env python3
"""DeploySetupTests: `Make/deploy <robot> --setup` and bin/run's notes on LoLA and NAOqi, no robot needed.

The fake robot is sshd_fixture.py's sshd (as in DeployTests). Its sessions get NAO_SETUP_ROOT, a fake root with what
a stock NAOqi OS has (/nao/etc/systemd/user with naoqi.service, lola.service and hal.service enabled in
aldebaran.target.wants/, /etc/security/, the user's home), NAO_LOLA_SOCKET (a socket path that only the test serves),
NAO_FAKE_RECORDS (where stand-ins note calls) and, first on PATH, the stand-ins of setup-stand-ins/: loginctl
(lingering as a file in the fake root), sudo and su (run the set-up as a fake root that id reports as uid 0; su asks
for root's password on a terminal) and mount (must not be called). A copy of /bin/sleep named naoqi-bin plays NAOqi
in /proc. Every check looks at what changed in the fake root and the records, not at what the set-up says it did.
The --setup lines of Util/Deploy/README.md are run as written; the test fails if one was not."""
import os
import re
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from sshd_fixture import DEAD_ADDRESS, Failure, SshdFixture, check, readme_commands, run_test_program

HERE = Path(__file__).resolve().parent
STAND_INS = [HERE / "setup-stand-ins", HERE / "robot-stand-ins"]
UNITS = "nao/etc/systemd/user"  # the stock image's user units, relative to the (fake) root


class SetupTest:
    def __init__(self, source: Path, build: Path, temporary: Path):
        self.source, self.build, self.tmp = source, build, temporary
        self.root = temporary / "fake-root"  # the robot's /
        self.records = temporary / "records"  # the stand-ins' notes
        self.socket = temporary / "robocup"  # LoLA's socket on the fake robot
        self.work = temporary / "work"
        self.ran: set[str] = set()
        self.naoqi: subprocess.Popen | None = None
        self.sshd = SshdFixture(temporary, temporary / "robot-home", STAND_INS, {
            "NAO_SETUP_ROOT": str(self.root), "NAO_LOLA_SOCKET": str(self.socket),
            "NAO_FAKE_RECORDS": str(self.records)})

    # --- set-up -----------------------------------------------------------------------------------------------
    def make_robot(self):
        """A fake root as a stock NAOqi OS has it: NAOqi, LoLA and HAL as units of nao's user manager."""
        units = self.root / UNITS
        (units / "aldebaran.target.wants").mkdir(parents=True)
        for unit, program in (("naoqi", "naoqi-bin"), ("lola", "lola"), ("hal", "hal")):
            (units / f"{unit}.service").write_text(f"[Service]\nExecStart=/opt/aldebaran/bin/{program}\n\n"
                                                   "[Install]\nWantedBy=aldebaran.target\n")
            (units / "aldebaran.target.wants" / f"{unit}.service").symlink_to(f"../{unit}.service")
        (self.root / "etc" / "security").mkdir(parents=True)
        self.records.mkdir()
        self.work.mkdir()
        self.user = self.sshd.user  # the user the service runs as: the ssh config's User of the robot
        self.home = Path(os.path.expanduser(f"~{self.user}"))
        (self.root / self.home.relative_to("/")).mkdir(parents=True, exist_ok=True)

    def start_naoqi(self) -> int:
        """A process named naoqi-bin (as NAOqi's on the robot) for the scans of /proc."""
        program = self.tmp / "naoqi" / "naoqi-bin"
        program.parent.mkdir()
        shutil.copy("/bin/sleep", program)
        self.naoqi = subprocess.Popen([str(program), "600"])
        deadline = time.monotonic() + 5
        while Path(f"/proc/{self.naoqi.pid}/comm").read_text().strip() != "naoqi-bin":
            check(time.monotonic() < deadline, "the fake NAOqi does not show up as naoqi-bin in /proc")
            time.sleep(0.05)
        return self.naoqi.pid

    def stop_naoqi(self):
        if self.naoqi and self.naoqi.poll() is None:
            self.naoqi.kill()
            self.naoqi.wait()

    # --- helpers ----------------------------------------------------------------------------------------------
    def deploy(self, command: str, ok=True) -> str:
        """Runs a Make/deploy command line as a user types it, without a terminal; returns its output."""
        argv = shlex.split(command, comments=True)
        check(argv[0] == "Make/deploy", f"not a Make/deploy command: {command}")
        self.ran.add(shlex.join(argv))
        print(f"\n$ {command}", flush=True)
        result = subprocess.run([str(self.source / "Make" / "deploy")] + argv[1:], cwd=self.work, env=self.sshd.env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                timeout=120)
        return self.finish(command, result.returncode, result.stdout, ok)

    def deploy_on_terminal(self, command: str, password: str, ok=True) -> str:
        """The same on a terminal (a pseudo-terminal), typing `password` when asked for one."""
        argv = shlex.split(command, comments=True)
        self.ran.add(shlex.join(argv))
        print(f"\n$ {command}   # on a terminal, password '{password}'", flush=True)
        master, slave = os.openpty()
        process = subprocess.Popen([str(self.source / "Make" / "deploy")] + argv[1:], cwd=self.work,
                                   env=self.sshd.env, stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
        os.close(slave)
        output, typed, deadline = b"", False, time.monotonic() + 120
        try:
            while time.monotonic() < deadline:
                ready, _, _ = select.select([master], [], [], 0.2)
                if ready:
                    try:
                        data = os.read(master, 4096)
                    except OSError:  # EIO: the terminal's last user is gone
                        data = b""
                    if not data:
                        break
                    output += data
                    if not typed and b"Password:" in output:
                        os.write(master, password.encode() + b"\n")
                        typed = True
                elif process.poll() is not None:
                    break
            code = process.wait(timeout=max(1.0, deadline - time.monotonic()))
        finally:
            os.close(master)
            if process.poll() is None:
                process.kill()
        check(typed, f"'{command}' on a terminal never asked for a password:\n{output.decode(errors='replace')}")
        return self.finish(command, code, output.decode(errors="replace").replace("\r\n", "\n"), ok)

    @staticmethod
    def finish(command: str, code: int, output: str, ok: bool) -> str:
        print("".join(f"  | {line}\n" for line in output.splitlines()), end="")
        print(f"  (exit code {code})", flush=True)
        if ok:
            check(code == 0, f"'{command}' failed with exit code {code}")
        else:
            check(code != 0, f"'{command}' should have failed")
        return output

    def snapshot(self) -> dict:
        """Everything in the fake root (links with their targets, files with content, mode and time) and the
        stand-ins' records."""
        files = {}
        for top in (self.root, self.records):
            for folder, folders, names in os.walk(top):
                for name in folders + names:
                    path = Path(folder) / name
                    key = str(path.relative_to(self.tmp))
                    if path.is_symlink():
                        files[key] = ("link", os.readlink(path))
                    elif path.is_dir():
                        files[key] = ("folder", path.stat().st_mode)
                    else:
                        stat = path.stat()
                        files[key] = ("file", path.read_bytes(), stat.st_mode, stat.st_mtime_ns)
        return files

    def unchanged(self, before: dict, what: str):
        after = self.snapshot()
        changed = sorted(key for key in set(before) | set(after) if before.get(key) != after.get(key))
        check(not changed, f"{what} changed the fake robot: {changed[:10]}")
        print(f"{what}: the fake root and the stand-ins' records are unchanged")

    def calls(self) -> list[str]:
        path = self.records / "calls"
        return path.read_text().splitlines() if path.exists() else []

    def wants(self) -> set[str]:
        return {path.name for path in (self.root / UNITS / "aldebaran.target.wants").iterdir()}

    def limits(self) -> Path:
        return self.root / "etc" / "security" / "limits.d" / f"{self.user}.conf"

    def robocup(self) -> Path:
        return self.root / self.home.relative_to("/") / "robocup.conf"

    def linger(self) -> Path:
        return self.root / "var" / "lib" / "systemd" / "linger" / self.user

    # --- the scenario -----------------------------------------------------------------------------------------
    def run(self):
        self.sshd.start()
        self.make_robot()
        naoqi = self.start_naoqi()
        lines = rf"{re.escape(self.user)} - rtprio 40", rf"{re.escape(self.user)} - memlock unlimited"

        before = self.snapshot()
        out = self.deploy(f"Make/deploy {DEAD_ADDRESS} --setup", ok=False)
        check("unreachable" in out and DEAD_ADDRESS in out and "nothing was changed" in out,
              "no clear error for an unreachable robot")
        self.unchanged(before, "--setup on an unreachable robot")

        out = self.deploy("Make/deploy Nao01 --setup --dry-run")
        for number, words in ((1, "would write /etc/security/limits.d/"), (2, "would run 'loginctl enable-linger"),
                              (3, f"would remove /{UNITS}/aldebaran.target.wants/naoqi.service"),
                              (4, f"would create {self.home}/robocup.conf"), (5, f"its socket {self.socket} is missing")):
            check(re.search(rf"^\[{number}/5\] .*{re.escape(words)}", out, re.MULTILINE),
                  f"--setup --dry-run does not show step {number} ({words})")
        check("4 of 4 steps would change the robot; nothing changed" in out, "--dry-run does not sum up")
        self.unchanged(before, "--setup --dry-run")

        (self.records / "no-sudo").touch()  # sudo wants a password, and there is no terminal for su's
        before = self.snapshot()
        out = self.deploy("Make/deploy Nao01 --setup", ok=False)
        check("cannot become root" in out and "nothing was changed" in out and "--setup-user root" in out,
              "no clear error when the set-up cannot become root")
        self.unchanged(before, "--setup without a way to root")
        (self.records / "no-sudo").unlink()

        # The set-up itself, becoming root with sudo.
        out = self.deploy("Make/deploy Nao01 --setup")
        check("becoming root with sudo" in out, "the set-up did not become root with sudo")
        text = self.limits().read_text() if self.limits().exists() else ""
        for line in lines:
            check(re.search(rf"^{line}$", text, re.MULTILINE), f"{self.limits()} lacks '{line}':\n{text}")
        check(self.linger().is_file(), f"lingering is not enabled: no {self.linger()}")
        check(self.calls() == [f"loginctl enable-linger {self.user}"], f"stand-ins' calls: {self.calls()}")
        check(self.wants() == {"lola.service", "hal.service"}, f"aldebaran.target.wants/ holds {self.wants()}: "
              "naoqi.service should be gone, lola.service and hal.service should stay")
        check((self.root / UNITS / "naoqi.service").is_file(), "the set-up removed NAOqi's unit file itself")
        check(self.robocup().is_file(), f"RoboCup mode is not on: no {self.robocup()}")
        check(f"its socket {self.socket} is missing: reboot the robot" in out, "a missing LoLA socket is not reported")
        check(f"NAOqi is running (naoqi-bin pid {naoqi})" in out, "a running NAOqi is not reported")
        check("4 of 4 steps changed the robot" in out and "reboot" in out, "the set-up does not say to reboot")

        before = self.snapshot()
        out = self.deploy("Make/deploy Nao01 --setup")
        check(len(re.findall(r"^\[[1-4]/5\] [^:]*: already done", out, re.MULTILINE)) == 4,
              "a second set-up does not report every step as already done")
        check("nothing to change" in out, "a second set-up does not say that it changed nothing")
        check(f"its socket {self.socket} is missing. LoLA is not running: reboot the robot" in out,
              "a second set-up does not say what to do about the missing LoLA socket")
        self.unchanged(before, "a second --setup")

        # On a terminal without sudo: su asks for root's password. NAOqi's autostart link is back (a re-flash).
        (self.records / "no-sudo").touch()
        (self.root / UNITS / "aldebaran.target.wants" / "naoqi.service").symlink_to("../naoqi.service")
        before = self.snapshot()
        out = self.deploy_on_terminal("Make/deploy Nao01 --setup", "wrong", ok=False)
        check("Authentication failure" in out, "a wrong root password is not reported")
        self.unchanged(before, "--setup with a wrong root password")
        out = self.deploy_on_terminal("Make/deploy Nao01 --setup", "root")
        check("becoming root with su" in out and "1 of 4 steps changed the robot" in out,
              "the set-up did not become root with su or did more than switch NAOqi's autostart off")
        check(self.wants() == {"lola.service", "hal.service"}, f"after su: aldebaran.target.wants/ {self.wants()}")
        (self.records / "no-sudo").unlink()

        # LoLA serving: the set-up sees its socket.
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as lola:
            lola.bind(str(self.socket))
            lola.listen()
            out = self.deploy("Make/deploy Nao01 --setup")
            check(f"its socket {self.socket} is there" in out, "the set-up does not see LoLA's socket")
        self.socket.unlink()
        check("mount" not in " ".join(self.calls()), f"something was remounted: {self.calls()}")

        self.check_bin_run(naoqi)
        self.check_readme()

    def check_bin_run(self, naoqi: int):
        """bin/run of a version folder built from this build: its notes on LoLA and NAOqi, with and without
        `--check`."""
        base = self.tmp / "nao-framework"
        version = base / "versions" / "20250101-000000-test"
        (version / "bin").mkdir(parents=True)
        (base / "local").mkdir()
        shutil.copy2(HERE.parent / "run", version / "bin" / "run")
        binary = self.build / "Src" / "Apps" / "Nao" / "nao"
        check(binary.is_file(), f"no robot binary at {binary}: build the target nao first")
        (version / "bin" / "nao").symlink_to(binary)
        (version / "Config").symlink_to(self.source / "Config")
        (version / "version.env").write_text("NAO_VERSION=20250101-000000-test\nNAO_ROBOT=Nao01\n"
                                             "NAO_SCENARIO=standin\nNAO_PLAYER=1\nNAO_BUILD=Release\nNAO_RECORD=0\n")
        env = dict(os.environ, NAO_LOLA_SOCKET=str(self.socket))
        missing, running = f"LoLA's socket {self.socket} is missing", f"NAOqi is running (naoqi-bin pid {naoqi})"

        def bin_run(*arguments, code=0) -> str:
            print(f"\n$ NAO_LOLA_SOCKET={self.socket} bin/run {shlex.join(arguments)}", flush=True)
            result = subprocess.run([str(version / "bin" / "run"), *arguments], env=env, cwd=self.work, timeout=60,
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True)
            return self.finish(f"bin/run {shlex.join(arguments)}", result.returncode, result.stdout, code == 0)

        out = bin_run("--check")
        check(f"bin/run --check: note: {missing}" in out and "RoboCup mode" in out and "--body standin" in out,
              "bin/run --check does not say what to do about the missing LoLA socket")
        check(f"bin/run --check: note: {running}" in out and "systemctl --user stop naoqi.service" in out,
              "bin/run --check does not say that NAOqi runs and how to stop it")
        check("body StandIn" in out, "bin/run --check did not run the binary against the stand-in body")

        (base / "local" / "args").write_text("# bench: no LoLA\n--body standin\n")
        out = bin_run("--check")
        check(missing not in out and "NAOqi" not in out, "bin/run --check warns about LoLA on a --body standin bench")
        (base / "local" / "args").unlink()

        self.stop_naoqi()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as lola:
            lola.bind(str(self.socket))
            out = bin_run("--check")
            check("note:" not in out and "body StandIn" in out, "bin/run --check warns although LoLA's socket is there")
        self.socket.unlink()

        out = bin_run("--no-debug", code=1)  # a start on LoLA without LoLA: the note, then the binary's own error
        check(f"bin/run: {missing}" in out, "bin/run does not say that LoLA's socket is missing")
        check(f"no LoLA server at '{self.socket}'" in out, "the binary did not look for LoLA at NAO_LOLA_SOCKET")

    def check_readme(self):
        shown = {command for command in readme_commands(HERE.parent / "README.md")
                 if "--setup" in shlex.split(command)}
        missing = sorted(shown - self.ran)
        check(shown and not missing, f"--setup commands of Util/Deploy/README.md the test did not run: {missing}")
        print(f"\nall {len(shown)} --setup commands of Util/Deploy/README.md were run")

    def sshds(self) -> list[SshdFixture]:
        return [self.sshd]

    def cleanup(self):
        self.stop_naoqi()
        self.sshd.stop()


def main() -> int:
    return run_test_program("DeploySetupTests", __doc__, SetupTest, lambda test, args: test.run())


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # ctest's timeout: clean up the fake NAOqi and sshd
    sys.exit(main())
