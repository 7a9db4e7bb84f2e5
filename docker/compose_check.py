"""``make compose-config``: validate docker-compose.yml and name its problem first, in one line.

docker-compose puts the reason for a rejected file at the end of a long line (after a dump of the whole
environment block) or across several YAML-parser lines; this prints a one-line summary first, then what
docker-compose said, indented. Standard library only: it runs before any virtualenv exists.

    python3 docker/compose_check.py [COMPOSE_FILE] [-- extra docker-compose arguments]
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

DEFAULT_FILE = Path(__file__).resolve().parents[1] / "docker-compose.yml"
_DUMPED_MAPPING = re.compile(r" interpolating \{.*\} in ")
_INVALID_FILE = re.compile(r"^The Compose file '[^']*' is invalid because:$")
_POSITION = re.compile(r'in "[^"]*", line (\d+), column (\d+)')


def summary(output: str, file_name: str) -> str:
    """The problem docker-compose reports, in one line naming the file."""
    lines = [line.removeprefix("ERROR: ").rstrip() for line in output.splitlines() if line.strip()]
    if not lines:
        return f"{file_name}: docker-compose failed without saying why"
    if lines[0].startswith("yaml."):
        return _yaml_summary(lines, file_name)
    if _INVALID_FILE.match(lines[0]) and len(lines) > 1:
        return f"{file_name} is invalid: {lines[1].strip()}"
    return f"{file_name}: {_DUMPED_MAPPING.sub(' in ', lines[0])}"


def _yaml_summary(lines: list[str], file_name: str) -> str:
    """From ``yaml.parser.ParserError: while parsing ...``, ``in "...", line 38``, ``expected ...``."""
    kind = lines[0].split(":", 1)[0].rsplit(".", 1)[-1]
    problems = [line.strip() for line in lines[1:] if not line.startswith(" ")]
    positions = _POSITION.findall("\n".join(lines))
    where = f" at line {positions[-1][0]}, column {positions[-1][1]}" if positions else ""
    problem = problems[-1] if problems else lines[0].split(":", 1)[-1].strip()
    return f"{file_name}: not valid YAML{where}: {problem} ({kind})"


def check(compose_file: Path, extra: list[str]) -> tuple[int, str]:
    """``(exit code, report)``: the report's first line says whether the file is valid and if not, why."""
    binary = shutil.which("docker-compose")
    if binary is None:
        return 2, "docker-compose not found: apt-get install docker-compose (Debian: no engine needed)"
    done = subprocess.run(
        [binary, "-f", str(compose_file), *extra, "config", "--quiet"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    said = (done.stdout + done.stderr).strip()
    if done.returncode == 0:
        return 0, f"{compose_file.name}: valid" + (f"\n{_indented(said)}" if said else "")
    return done.returncode, f"{summary(said, compose_file.name)}\n{_indented(said)}"


def _indented(text: str) -> str:
    return "\n".join(f"    {line}" for line in text.splitlines())


def main(argv: list[str]) -> int:
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    positional = argv[: argv.index("--")] if "--" in argv else argv
    compose_file = Path(positional[0]) if positional else DEFAULT_FILE
    code, report = check(compose_file, extra)
    print(report, file=sys.stderr if code else sys.stdout)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
