"""SIGTERM and Ctrl-C in a long-running command: the first asks it to stop (whenever it comes, start-up
included), a second quits at once, and leaving the block restores the previous handlers."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def run(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip


def test_a_signal_is_recorded_and_wait_returns_once_it_came() -> None:
    done = run(
        """
        import os, signal
        from ragpulse_core.stop_signals import StopSignals

        with StopSignals() as signals:
            os.kill(os.getpid(), signal.SIGTERM)  # during "start-up": recorded, nothing interrupted
            print("start-up finished", signals.requested, flush=True)
            signals.wait()
            print("stopping", signals.received == signal.SIGTERM, flush=True)
        print("restored", signal.getsignal(signal.SIGTERM) == signal.SIG_DFL)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["start-up finished True", "stopping True", "restored True"]


def test_a_second_signal_quits_at_once() -> None:
    done = run(
        """
        import os, signal, time
        from ragpulse_core.stop_signals import StopSignals

        with StopSignals() as signals:
            os.kill(os.getpid(), signal.SIGINT)
            print("stopping slowly", flush=True)
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(30)
            print("not reached")
        """
    )
    assert done.returncode == 128 + 2
    assert done.stdout == "stopping slowly\n"
    assert done.stderr == "second stop signal: quitting now\n"
