"""What Make/deploy copies: the build folder and its robot binary (static: no libraries, no glibc needed; a dynamic
build's libraries and glibc need are read off it), and the version folder staged from it with Config/, the unit,
version.env and a MANIFEST."""
import hashlib
import os
import re
import shlex
import shutil
import struct
import subprocess
from pathlib import Path

import tomllib

from processes import DeployError, run
from robots import Robot, rel

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
BUILD_TYPES = {"Release": "Release", "Develop": "RelWithDebInfo", "Debug": "Debug"}  # ours -> CMake's
# Libraries the robot's own C library provides; every other shared library ships in lib/.
GLIBC = {"linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2",
         "librt.so.1", "libresolv.so.2", "libutil.so.1", "libmvec.so.1"}


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
