#!/usr/bin/env python3
"""DeployHostileTests: Make/deploy does not trust the robot, holds a lock per robot, and ends its children with it.

Two fake robots of sshd_fixture.py: the example robot Nao01 (10.0.24.11), as in deploy_test.py, and a tampered one at
10.0.24.66 whose `bash` (hostile-stand-ins/bash, first on its PATH) appends lies to remote.sh's answers. The test
checks that
- a lie about the version name, the base folder or the current version that would put files outside Make/deploy's
  temporary folder, or an option onto rsync's command line, is refused with an error naming the robot and the value,
  with nothing written outside the temporary folder and nothing copied; the name prepare may really answer (the
  proposed one with -2 appended) is taken; --status escapes terminal control characters and refuses a pid that is no
  number; --logs writes journal.txt beside a link of that name instead of through it, and takes no link or FIFO;
- a second deploy or a rollback while a deploy copies fails at once naming the holder of the lock, and the first one
  ends well; a deploy that lost its lock on the robot switches nothing; the next deploy takes a stale lock over;
- SIGTERM, SIGHUP or SIGINT to a copying deploy ends it with every process it started (rsync and the ssh of rsync
  and of the lock), the robot keeps its version, running, and its lock is free.
--only runs one part (each fails without the fix it checks)."""
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from deploy_test import STAND_INS, DeployTest
from sshd_fixture import SshdFixture, check, run_test_program

HERE = Path(__file__).resolve().parent
HOSTILE_ADDRESS = "10.0.24.66"
PARTS = ("hostile", "lock", "signals")


def processes() -> dict[int, tuple[int, int, int, str, str]]:
    """pid -> (parent, process group, start time, state, name) of every process."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat = Path(f"/proc/{name}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        table[int(name)] = (int(fields[1]), int(fields[2]), int(fields[19]), fields[0],
                            stat[stat.index("(") + 1:stat.rindex(")")])
    return table


def descendants(root: int) -> set[tuple[int, int, str]]:
    """(pid, start time, name) of the processes below root and of every process group they lead."""
    table = processes()
    found, grown = {root}, True
    while grown:
        more = {pid for pid, info in table.items() if info[0] in found} - found
        found |= more
        grown = bool(more)
    groups = {table[pid][1] for pid in found if pid in table} - {os.getpgrp()}
    found |= {pid for pid, info in table.items() if info[1] in groups}
    return {(pid, table[pid][2], table[pid][4]) for pid in found - {root} if pid in table}


def alive(pid: int, start: int) -> bool:
    info = processes().get(pid)
    return info is not None and info[2] == start and info[3] not in ("Z", "X")


class HostileTest(DeployTest):
    def __init__(self, source: Path, build: Path, temporary: Path):
        super().__init__(source, build, temporary)
        self.hostile_home = temporary / "hostile" / "robot-home"
        self.hostile = SshdFixture(temporary / "hostile", self.hostile_home, [HERE / "hostile-stand-ins", STAND_INS],
                                   address=HOSTILE_ADDRESS)
        self.big = temporary / "big" / "Config"

    def sshds(self) -> list[SshdFixture]:
        return [self.sshd, self.hostile]

    def cleanup(self):
        super().cleanup()
        self.hostile.stop()

    def start(self):
        self.start_sshd()
        (self.tmp / "hostile").mkdir()
        self.hostile.start()
        self.hostile_env = dict(self.hostile.env, NAO_DEPLOY_BUILD_DIR=str(self.build))
        shutil.copytree(self.source / "Config", self.big)
        (self.base / "local").mkdir(parents=True)  # Nao01 is on the bench: its service runs the stand-in body
        (self.base / "local" / "args").write_text("--body standin --frames=100000\n--realtime\n--no-debug\n")

    def answers(self, operation: str, text: str | None):
        """What the tampered robot appends to remote.sh's answers to `operation` (None: nothing)."""
        folder = self.hostile_home / "hostile"
        folder.mkdir(parents=True, exist_ok=True)
        if text is None:
            (folder / operation).unlink(missing_ok=True)
        else:
            (folder / operation).write_text(text)

    def slow_config(self) -> str:
        """A Config with a new 5 MB file, so that --bwlimit 250 copies it for 20 s."""
        (self.big / "Robots" / "Nao01" / "large.bin").write_bytes(os.urandom(5_000_000))
        return f"--no-build --config {self.big} --bwlimit 250"

    def launch(self, command: str) -> tuple[subprocess.Popen, Path]:
        argv = command.split()
        self.ran.add(" ".join(argv))
        output = self.tmp / f"launched-{len(self.ran)}.out"
        print(f"\n$ {command} &", flush=True)
        with open(output, "w") as stream:
            process = subprocess.Popen([str(self.source / "Make" / "deploy")] + argv[1:], cwd=self.work, env=self.env,
                                       stdin=subprocess.DEVNULL, stdout=stream, stderr=subprocess.STDOUT)
        return process, output

    def finish(self, process: subprocess.Popen, output: Path, timeout=120) -> tuple[int, str]:
        try:
            code = process.wait(timeout=timeout)
        finally:
            if process.poll() is None:
                process.kill()
        text = output.read_text()
        print("".join(f"  | {line}\n" for line in text.splitlines()), end="")
        print(f"  (the background deploy's exit code {code})", flush=True)
        return code, text

    def wait_copying(self, process: subprocess.Popen, output: Path):
        deadline = time.monotonic() + 120
        while True:
            check(process.poll() is None, f"the deploy ended before it copied:\n{output.read_text()}")
            check(time.monotonic() < deadline, "rsync did not start copying within 120 s")
            if any(info[0] == process.pid and info[4] == "rsync" for info in processes().values()) and \
                    self.incoming_bytes() > 200_000:
                return
            time.sleep(0.05)

    def lock_text(self) -> str:
        path = self.base / ".deploy.lock"
        return path.read_text() if path.exists() else ""

    # --- a tampered robot ---------------------------------------------------------------------------------------
    def run_hostile(self):
        deep = self.tmp / "hostile" / "local-tmp" / "deep"  # Make/deploy's TMPDIR: it stages into deep/nao-deploy-*/
        deep.mkdir(parents=True)
        env = dict(self.hostile_env, TMPDIR=str(deep))
        versions = self.hostile_home / "nao-framework" / "versions"
        lies = [("prepare", "@version=../../escape", "answered version '../../escape' to 'prepare', not the proposed"),
                ("prepare", "@version=@PROPOSED@/../../escape", "/../../escape' to 'prepare', not the proposed"),
                ("prepare", "@version=@PROPOSED@-2x", "-2x' to 'prepare', not the proposed"),
                ("prepare", "@base=relative/nao-framework", "answered base='relative/nao-framework' to 'prepare'"),
                ("prepare", "@base=/home/nao/../../etc", "answered base='/home/nao/../../etc' to 'prepare'"),
                ("prepare", "@base=/home/nao -e sh", "answered base='/home/nao -e sh' to 'prepare'"),
                ("prepare", "@current=../../../../etc", "answered current='../../../../etc' to 'prepare'"),
                ("prepare", "@current=--rsh=sh", "answered current='--rsh=sh' to 'prepare'"),
                ("state", "@base=-oProxyCommand=sh", "answered base='-oProxyCommand=sh' to 'state'")]
        for operation, lie, expected in lies:
            self.answers(operation, lie + "\n")
            out = self.deploy(f"Make/deploy {HOSTILE_ADDRESS} --no-build", ok=False, env=env)
            self.answers(operation, None)
            outside = sorted(path.name for path in deep.parent.iterdir())
            check(outside == ["deep"] and not any(deep.iterdir()),
                  f"after the lie {lie!r} Make/deploy left {outside} beside its TMPDIR, {list(deep.iterdir())} in it")
            check(not versions.exists() or not any(versions.iterdir()),
                  f"the lie {lie!r}: copied {sorted(path.name for path in versions.iterdir())} to the robot")
            check(expected in out and f"@{HOSTILE_ADDRESS})" in out and "nothing was copied or switched" in out,
                  f"the lie {lie!r} is not refused with an error naming the robot and the value")
        print(f"\n{len(lies)} lies refused; nothing written outside the temporary folder, nothing copied")

        # The one change prepare really makes to the name: -2 where the proposed name is taken.
        self.answers("prepare", "@version=@PROPOSED@-2\n")
        self.deploy(f"Make/deploy {HOSTILE_ADDRESS} --no-build", env=env)
        self.answers("prepare", None)
        current = self.hostile_home / "nao-framework" / "current"
        check(current.is_symlink() and re.fullmatch(r"\d{8}-\d{6}-.+-2", os.path.basename(os.readlink(current))),
              f"the version name with -2 was not deployed: current -> {os.readlink(current)}")

        self.answers("status", "@journal=\x1b]0;owned\x07\x1b[2J\u202ehostile line\n")
        out = self.deploy(f"Make/deploy {HOSTILE_ADDRESS} --status", env=env)
        check("\x1b" not in out and "\x07" not in out and "\u202e" not in out and
              "\\x1b]0;owned\\x07\\x1b[2J\\u202ehostile line" in out,
              "--status printed the robot's control characters to the terminal")
        self.answers("status", "@pid=1; rm -rf ~\n")
        out = self.deploy(f"Make/deploy {HOSTILE_ADDRESS} --status", ok=False, env=env)
        self.answers("status", None)
        check("answered pid='1; rm -rf ~' to 'status'" in out and "Traceback" not in out, "a bad pid is not refused")

        # --logs: a link named journal.txt in the robot's logs/ and a FIFO.
        logs = self.hostile_home / "nao-framework" / "logs"
        victim = self.tmp / "hostile" / "victim.txt"
        victim.write_text("precious\n")
        (logs / "journal.txt").symlink_to(victim)
        os.mkfifo(logs / "pipe.log")
        (logs / "real.log").write_text("a log\n")
        download = self.tmp / "hostile" / "downloaded"
        self.deploy(f"Make/deploy {HOSTILE_ADDRESS} --logs {download}", env=env)
        check(victim.read_text() == "precious\n", "--logs wrote through the robot's link journal.txt")
        check((download / "journal.txt").is_file() and not (download / "journal.txt").is_symlink(),
              "journal.txt is not a file of its own")
        check(not (download / "pipe.log").exists() and (download / "real.log").read_text() == "a log\n",
              f"--logs: {sorted(path.name for path in download.iterdir())}")
        self.answers("state", "@base=/tmp/../etc\n")
        out = self.deploy(f"Make/deploy {HOSTILE_ADDRESS} --logs {download}-2", ok=False, env=env)
        self.answers("state", None)
        check("answered base='/tmp/../etc' to 'state'" in out and not Path(f"{download}-2").exists(),
              "--logs does not refuse a base with ..")

    # --- two deploys at once ------------------------------------------------------------------------------------
    def run_lock(self):
        self.deploy("Make/deploy Nao01 --no-build --restart")
        v1 = self.link("current")
        self.wait_running(v1)
        first, output = self.launch(f"Make/deploy Nao01 {self.slow_config()}")
        self.wait_copying(first, output)
        holder = f"pid {first.pid}, deploy since"
        for command in ("Make/deploy Nao01 --no-build", "Make/deploy Nao01 --rollback"):
            started = time.monotonic()
            out = self.deploy(command, ok=False)
            check("is locked by another deploy" in out and holder in out and "nothing was changed" in out,
                  f"'{command}' during a deploy does not fail naming the lock's holder ({holder})")
            check(time.monotonic() - started < 10, f"'{command}' did not fail at once")
        out = self.deploy("Make/deploy Nao01 --status")
        check("locked    by a deploy in progress: " in out and holder in out, "--status does not show the lock")
        check(first.poll() is None and self.incoming_bytes() > 0, "the first deploy's copy was disturbed")
        code, text = self.finish(first, output)
        check(code == 0 and self.link("current") not in ("", v1), f"the first deploy failed ({code})")
        check(self.lock_text() == "", f"the lock is not free after the deploy: {self.lock_text()!r}")

        # A deploy whose lock holder on the robot is killed (a robot-side crash) switches nothing.
        v2 = self.link("current")
        second, output = self.launch(f"Make/deploy Nao01 {self.slow_config()}")
        self.wait_copying(second, output)
        marker = f"pid {second.pid}, deploy since".encode()
        robot_holders = [pid for pid in processes() if self.cmdline(pid).find(b"\0remote\0lock\0") >= 0
                         and marker in self.cmdline(pid)]
        check(len(robot_holders) == 1, f"the lock's holder on the robot is not one process: {robot_holders}")
        os.kill(robot_holders[0], signal.SIGKILL)
        code, text = self.finish(second, output)
        check(code == 1 and "lost the deploy lock" in text and self.link("current") == v2,
              "a deploy that lost its lock is not stopped before the switch")
        check(marker.decode() in self.lock_text(), "the killed holder's line is not left in the lock file")
        out = self.deploy("Make/deploy Nao01 --no-build")
        check("took over the deploy lock of" in out and marker.decode() in out and self.link("current") != v2,
              "a stale lock is not taken over with a message")
        check(self.lock_text() == "", f"the lock is not free after the deploy: {self.lock_text()!r}")

    @staticmethod
    def cmdline(pid: int) -> bytes:
        try:
            return Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return b""

    # --- signals ------------------------------------------------------------------------------------------------
    def run_signals(self):
        self.deploy("Make/deploy Nao01 --no-build --restart")
        self.wait_running(self.link("current"))
        for number in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            name = signal.Signals(number).name
            before, service = self.link("current"), self.service()
            deploy, output = self.launch(f"Make/deploy Nao01 {self.slow_config()} --restart")
            self.wait_copying(deploy, output)
            children = descendants(deploy.pid)
            names = sorted(child for _, _, child in children)
            check("rsync" in names and "ssh" in names, f"no rsync and ssh below the deploy: {names}")
            print(f"{name} to the deploy (pid {deploy.pid}) while it copies; its processes: {', '.join(names)}")
            os.kill(deploy.pid, number)
            code, text = self.finish(deploy, output, timeout=30)
            left = [(pid, child) for pid, start, child in children if alive(pid, start)]
            check(not left, f"{name}: processes of the stopped deploy still run: {left}")
            check(code == 128 + number and f"stopped by {name}" in text and f"the robot keeps {before}" in text,
                  f"{name}: exit code {code}, not {128 + number} with a message saying what the robot keeps")
            check(self.link("current") == before and service[0] and self.service() == service,
                  f"{name}: the robot does not keep {before} running ({service} before, {self.service()} now)")
            deadline = time.monotonic() + 10
            while self.lock_text() and time.monotonic() < deadline:
                time.sleep(0.1)
            check(self.lock_text() == "", f"{name}: the robot's lock is not freed: {self.lock_text()!r}")
        out = self.deploy("Make/deploy Nao01 --no-build")
        check("removed an interrupted copy" in out and "took over" not in out,
              "the deploy after the stopped ones does not remove their partial copy")


def run_parts(test: HostileTest, args):
    test.start()
    for part in args.only or PARTS:
        print(f"\n=== {part}", flush=True)
        getattr(test, f"run_{part}")()


def main() -> int:
    return run_test_program(
        "DeployHostileTests", __doc__, HostileTest, run_parts,
        lambda parser: parser.add_argument("--only", choices=PARTS, action="append",
                                           help="run only this part (repeatable)"))


if __name__ == "__main__":
    sys.exit(main())
