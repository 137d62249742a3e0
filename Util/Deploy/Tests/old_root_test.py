#!/usr/bin/env python3
"""OldRootTests: the version folder Make/deploy stages runs in a root file system that holds nothing but it, a static
bash and busybox's tools: no glibc and no other library of any age (the NAO's own OS has glibc 2.29 or 2.31).

The robot binary must be static (no program interpreter, no dynamic section, so no GLIBC_ symbol version at all).
In the root, as on the robot: `bin/run --check`; a stand-in run of 500 frames at 12 ms with the motion thread at
SCHED_FIFO 40 and memory locked (checked from outside in /proc) and the kinematics JIT required (backend = "jit",
SSE4.1 as on the NAO's Atom); 2,000 lock-step frames against `Simulator serve` through a LoLA socket created
inside the root, with a DebugClient reading a representation over the debug channel's TCP meanwhile.

Runs as root (chroot; the CI machine) or, elsewhere, in a user namespace (unshare --map-root-user), where the
kernel refuses real-time priority: the binary then says so and the test checks that message instead."""
import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import staging  # noqa: E402  (Util/Deploy/staging.py: the staging the deploys use)
from robots import Robot  # noqa: E402

failures = []
BASE = "/home/nao/nao-framework"  # the robot's layout, inside the root
TOOLS = ["dirname", "readlink", "sed", "date", "mkdir", "cat", "sleep", "ls", "env", "sh"]  # busybox applets


def check(condition, message):
    print(("ok:   " if condition else "FAIL: ") + message, flush=True)
    if not condition:
        failures.append(message)
    return condition


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_root(root: Path, binary: Path, config: Path) -> Path:
    """The root: the version folder, `current`, /bin/bash, busybox and its applets, /tmp, /proc. Returns the
    version folder."""
    version = "20261127-000000-oldroot"
    robot = Robot(name="OldRoot", address="127.0.0.1", player=1)
    settings = {"NAO_VERSION": version, "NAO_ROBOT": robot.name, "NAO_SCENARIO": "stand", "NAO_PLAYER": 1,
                "NAO_BUILD": "Release", "NAO_GIT": staging.git_version(), "NAO_GLIBC_NEEDED": "",
                "NAO_RECORD": 0}
    stage = root / BASE.lstrip("/") / "versions" / version
    staging.stage_version(stage, binary, staging.shared_libraries(binary), config, robot, settings, BASE)
    os.symlink(f"versions/{version}", stage.parent.parent / "current")
    (root / "bin").mkdir()
    shutil.copy2("/bin/bash-static", root / "bin" / "bash")
    shutil.copy2("/bin/busybox", root / "bin" / "busybox")
    for tool in TOOLS:
        os.symlink("busybox", root / "bin" / tool)
    (root / "tmp").mkdir(mode=0o1777)
    (root / "proc").mkdir()
    (root / "dev").mkdir()
    (root / "dev" / "null").touch()  # where the machine's /dev/null is bound (in_root)
    return stage


def in_root(root: Path, *command: str) -> list[str]:
    """command run in the root: own mount and pid namespaces with a /proc of its own and the machine's /dev/null
    bound in, PATH=/bin, no other environment."""
    user = [] if os.geteuid() == 0 else ["--map-root-user"]
    enter = 'mount --bind /dev/null "$0/dev/null" && exec chroot "$0" /bin/env -i PATH=/bin HOME=/home/nao "$@"'
    return ["unshare", *user, "--mount", "--pid", "--fork", "--kill-child", f"--mount-proc={root / 'proc'}",
            "/bin/sh", "-c", enter, str(root), *command]


def process_of(executable: Path) -> int | None:
    """The pid (as seen here) of the process running `executable`."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "exe") == str(executable):
                    return int(entry.name)
            except OSError:
                continue
    return None


def real_time_state(pid: int) -> tuple[set[int], int]:
    """The scheduling policies of the process's threads (field 41 of /proc/<pid>/task/<tid>/stat) and its locked
    memory in kB."""
    policies = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        policies.add(int(fields[38]))  # policy is field 41; fields[0] is field 3 (state)
    locked = re.search(r"^VmLck:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.MULTILINE)
    return policies, int(locked.group(1)) if locked else 0


def check_binary(binary: Path):
    check(staging.is_static(binary), f"{binary.name} is a static executable (no interpreter, no dynamic section)")
    symbols = subprocess.run(["objdump", "-T", str(binary)], capture_output=True, text=True)
    versions = sorted(set(re.findall(r"\bGLIBC_(\d+\.\d+)", symbols.stdout + symbols.stderr)),
                      key=staging.version_tuple)
    check(not versions or staging.version_tuple(versions[-1]) <= (2, 29),
          f"objdump -T shows no GLIBC_ version above 2.29 (found: {', '.join(versions) or 'none'})")
    check(staging.required_glibc([binary]) is None, "deploy computes no glibc requirement for it")


def check_root_has_no_library(root: Path):
    libraries = [str(path.relative_to(root)) for path in root.rglob("*")
                 if path.is_file() and re.search(r"\.so(\.\d+)*$", path.name)]
    check(not libraries, f"the root holds no shared library ({', '.join(libraries) or 'none'})")


def run_check(root: Path):
    result = subprocess.run(in_root(root, f"{BASE}/current/bin/run", "--check"), capture_output=True, text=True,
                            timeout=120)
    output = result.stdout + result.stderr
    print(output)
    check(result.returncode == 0 and "body StandIn" in output, "bin/run --check passes in the root")


def run_stand_in(root: Path, stage: Path):
    command = in_root(root, f"{BASE}/current/bin/run", "--body", "standin", "--realtime", "--frames", "500",
                      "--no-debug")
    robot = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    executable = stage / "bin" / "nao"
    pid, policies, locked = None, set(), 0
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and robot.poll() is None and not policies:
        pid = process_of(executable)
        if pid:
            time.sleep(1.0)  # the motion thread is up and has set its priority
            try:
                policies, locked = real_time_state(pid)
            except OSError:
                pass
        time.sleep(0.1)
    output, _ = robot.communicate(timeout=60)
    print(output)
    check(robot.returncode == 0 and "(of 500)" in output, "a stand-in run of 500 frames ends normally in the root")
    if os.geteuid() == 0:
        check(1 in policies, f"a thread runs SCHED_FIFO (policies seen: {sorted(policies)})")
        check(locked > 0, f"memory is locked (VmLck {locked} kB)")
    else:
        check("was refused" in output, "outside root the binary says real-time priority was refused")


def run_lock_step(root: Path, build: Path, source: Path, temporary: Path):
    frames = 2000
    lola = root / "tmp" / "robocup"
    output = temporary / "serve"
    simulator = subprocess.Popen(
        [str(build / "Util" / "Simulator" / "App" / "Simulator"), "serve", "stand", "--socket", str(lola),
         "--lockstep", "--minutes", str(frames * 0.012 / 60), "--wait", "120", "--no-plots", "--output",
         str(output), "--config", str(source / "Config")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 60
    while not lola.exists() and time.monotonic() < deadline and simulator.poll() is None:
        time.sleep(0.1)
    check(lola.exists(), "Simulator serve created the LoLA socket inside the root")
    port = free_port()
    robot = subprocess.Popen(in_root(root, f"{BASE}/current/bin/run", "--debug-port", str(port)),
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    client = subprocess.run([str(build / "Util" / "DebugClient" / "DebugClient"), "--port", str(port), "--wait",
                             "30", "get", "JointRequest"], capture_output=True, text=True, timeout=60)
    print(client.stdout[-2000:] + client.stderr)
    check(client.returncode == 0 and "angles" in client.stdout,
          "DebugClient read JointRequest over TCP from the binary in the root")
    simulator_output, _ = simulator.communicate(timeout=400)
    print(simulator_output)
    robot_output, _ = robot.communicate(timeout=60)
    print(robot_output)
    check(simulator.returncode == 0 and " 0 missing, 0 malformed answers" in simulator_output,
          "Simulator serve ended normally, every frame answered")
    check("body LoLA" in robot_output, "the binary in the root ran against LoLA's socket")
    served = re.search(r"LoLA: (\d+) packets, 0 bad, 0 skipped, (\d+) answers sent, 0 send failures", robot_output)
    check(served is not None and int(served.group(1)) >= frames and served.group(1) == served.group(2),
          f"{served.group(1) if served else 'no'} lock-step frames answered without fault (at least {frames})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--source-dir", type=Path, required=True)
    parser.add_argument("--build-dir", type=Path, required=True)
    args = parser.parse_args()
    source, build = args.source_dir.resolve(), args.build_dir.resolve()
    binary = build / "Src" / "Apps" / "Nao" / "nao"
    for tool in ("/bin/bash-static", "/bin/busybox", shutil.which("unshare"), shutil.which("objdump")):
        if not tool or not Path(tool).exists():
            sys.exit(f"OldRootTests needs bash-static, busybox-static, util-linux (unshare) and binutils "
                     f"(Make/install-deps); missing: {tool}")
    check_binary(binary)
    temporary = Path(tempfile.mkdtemp(prefix="nao-old-root-"))
    try:
        config = temporary / "Config"
        shutil.copytree(source / "Config", config)
        overlay = config / "Robots" / "OldRoot" / "Modules"
        overlay.mkdir(parents=True)
        # The JIT or no start at all, with the NAO's SSE4.1 code (an overlay of the robot, as a team writes one).
        (overlay / "RobotModelProvider.toml").write_text('backend = "jit"\nallowAvx2 = false\n')
        root = temporary / "root"
        stage = make_root(root, binary, config)
        check_root_has_no_library(root)
        run_check(root)
        run_stand_in(root, stage)
        run_lock_step(root, build, source, temporary)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    print(f"\n{len(failures)} failure(s)" if failures else "\nall checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
