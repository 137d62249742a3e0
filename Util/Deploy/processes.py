"""Make/deploy's errors and child processes: each child in a process group of its own, ended with Make/deploy
(SIGINT, SIGTERM, SIGHUP), and robot text made safe for the terminal."""
import os
import signal
import subprocess
import sys
import threading
import unicodedata


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
