"""What a user reads (README, docs/, docstrings and comments of the package, its tools,
examples and engine sources) describes the software as it is: no words from how the work
was organised ("stop 38", "issue 47", "this round", "the issue's") and no paths of the
machine it was written on."""
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]

# Each pattern with what it catches. "stops 43 m on" (a ball that stops) is not a stop number.
PATTERNS = [
    (re.compile(r"\b[Ss]tops? \d+(?:-\d+)?+(?![\d.]| ?m\b)"), "a work stop's number"),
    (re.compile(r"\b[Ii]ssues? #?\d+"), "an issue number"),
    (re.compile(r"\b[Tt]his stop\b"), "'this stop'"),
    (re.compile(r"\b[Tt]he issue'?s\b"), "'the issue's'"),
    (re.compile(r"\b[Rr]ounds? \d+\b"), "a round's number"),
    (re.compile(r"\b(?:[Tt]his|[Pp]revious|[Ee]arlier|[Ll]atest|[Nn]ext) rounds?\b"), "a work round"),
    (re.compile(r"PYTHONPATH=pkg"), "the development checkout's PYTHONPATH"),
    (re.compile(r"(?<![\w.])/work/"), "a machine path"),
    (re.compile(r"\.\./shared\b"), "a path outside the repository"),
    (re.compile(r"football_fidelity_rounds"), "the old name of the calibration changelog"),
]


def _files():
    files = [ROOT / "README.md", ROOT / "examples" / "README.md", ROOT / "tools" / "README.md"]
    files += sorted((ROOT / "docs").glob("*.md"))
    files += sorted((ROOT / "envs").rglob("*.py"))
    files += sorted((ROOT / "examples").glob("*.py"))
    files += sorted((ROOT / "tools").glob("*.py"))
    for domain in ("common", "football", "racing", "driving", "bindings", "tests"):
        for ext in ("*.cpp", "*.h"):
            files += sorted((ROOT / "cpp_engine" / domain).rglob(ext))
    return [f for f in files if f.is_file()]


def find_organisational_words(text):
    """Return (line number, matched text, what it is) for each offending phrase."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for pattern, what in PATTERNS:
            for match in pattern.finditer(line):
                found.append((number, match.group(0), what))
    return found


def test_the_scanner_catches_the_words_it_is_for():
    assert find_organisational_words("measured at stop 38's head")
    assert find_organisational_words("stops 27-35 over-reward")
    assert find_organisational_words("see issue 47 and this round's table")
    assert find_organisational_words("run `PYTHONPATH=pkg python x.py` in /work/wt/a")
    assert find_organisational_words("The issue's tolerance")
    assert find_organisational_words("per ../shared/GRF.md")
    # A ball that stops some metres on, and "around" spelled "round", are plain English.
    assert not find_organisational_words("a low shot stops 35-44 m on; stops 43 m on")
    assert not find_organisational_words("spots handed round every 0.4 s, each way round")


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_user_facing_text_has_no_organisational_words_or_machine_paths(path):
    found = find_organisational_words(path.read_text(encoding="utf-8", errors="replace"))
    assert not found, "\n".join(f"{path.relative_to(ROOT)}:{n}: {m!r} ({what})" for n, m, what in found)
