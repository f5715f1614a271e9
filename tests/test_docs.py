"""The documentation checked against the code, so that it cannot drift unnoticed.

* ``docs/rules/<game>.md``: every rule id the code and the rules tests cite is a rule of the doc,
  and the doc's rules are exactly the ids that ``tests/test_<game>_rules.py`` has a test for; the
  stated action count and observation size are the env's; the action table covers every action
  index once, each index's text has the row's form, and every example text parses to its index;
  the observation table's part sizes add up to the observation size.
* ``README.md`` stays under 200 lines and links to ``docs/``; the games page ``docs/games.md``
  is the table the manifests give (``python -m tests.test_docs --write`` writes it anew).
* Every relative link of ``README.md`` and ``docs/**/*.md`` names a file that exists; every
  repository path the docs name in backticks exists (``<game>`` read as each game).
* No file of the repository points outside it (the folder the rules were first written in is not
  shipped to users).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cardarena import envs

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: game -> the letter of its rule ids (``rule_letter`` of its manifest)
GAMES = {name: envs.get_spec(name).rule_letter for name in envs.names()}
GAMES_PAGE = DOCS / "games.md"

# Built from pieces so that this file does not contain what it looks for.
OUTSIDE = [
    b"shared" + b"/rules",
    b"shared" + b"/DESIGN",
    b"../" + b"shared",
    b'"shared"' + b' / "rules"',  # a path built in code
]


# ---- reading the docs ------------------------------------------------------------------------------


def rules_doc(game: str) -> str:
    return (DOCS / "rules" / f"{game}.md").read_text(encoding="utf-8")


def section(text: str, title: str) -> str:
    """The body of the ``## title`` section (up to the next ``## ``)."""
    match = re.search(rf"^## {re.escape(title)}\s*$(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    assert match, f"no '## {title}' section"
    return match.group(1)


def table_rows(text: str) -> list[list[str]]:
    """The cells of the first Markdown table in ``text``, header and rule line left out."""
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append(cells)
    assert len(rows) > 2, "no table"
    return rows[2:]


def expand(ids: str, letter: str) -> set[str]:
    """``"U13-U19, U29"`` -> every id it names."""
    out: set[str] = set()
    for a, b in re.findall(rf"{letter}(\d+)(?:\s*-\s*{letter}(\d+))?", ids):
        out.update(f"{letter}{i}" for i in range(int(a), int(b or a) + 1))
    return out


def defined_ids(game: str) -> list[str]:
    """Rule ids the doc states, as ``- F12. ...`` list items."""
    return re.findall(rf"^- ({GAMES[game]}\d+)\. \S", rules_doc(game), flags=re.M)


def unused_ids(game: str) -> set[str]:
    """Numbers the doc says are not used (``Unused ids: U13-U19, ...``)."""
    match = re.search(r"^Unused ids: (.*)$", rules_doc(game), flags=re.M)
    return expand(match.group(1), GAMES[game]) if match else set()


def cited_ids(game: str) -> dict[str, set[str]]:
    """Rule ids cited in ``envs/<game>/`` and the game's rules tests, by id -> files."""
    letter = GAMES[game]
    files = [
        p for p in (ROOT / "envs" / game).rglob("*") if p.suffix in (".py", ".yaml", ".md")
    ] + [ROOT / "tests" / f"test_{game}_rules.py"]
    found: dict[str, set[str]] = {}
    for path in files:
        for num in re.findall(rf"(?<![A-Za-z0-9]){letter}(\d{{1,2}})(?![0-9])", path.read_text()):
            found.setdefault(f"{letter}{int(num)}", set()).add(str(path.relative_to(ROOT)))
    return found


def ids_with_a_test(game: str) -> set[str]:
    text = (ROOT / "tests" / f"test_{game}_rules.py").read_text()
    return set(re.findall(rf"^def test_({GAMES[game]}\d+)_", text, flags=re.M))


def stated_sizes(game: str) -> tuple[int, int]:
    match = re.search(
        r"^Sizes: ([\d,]+) actions, observation of ([\d,]+) floats\.$", rules_doc(game), re.M
    )
    assert match, f"docs/rules/{game}.md has no 'Sizes: N actions, observation of M floats.' line"
    return int(match.group(1).replace(",", "")), int(match.group(2).replace(",", ""))


def make_env(game: str):
    env = envs.make(game)
    env.reset(seed=0)
    return env


# ---- rules docs ------------------------------------------------------------------------------------


def test_every_registered_game_has_a_rules_doc() -> None:
    letters = list(GAMES.values())
    for game, letter in GAMES.items():
        assert re.fullmatch(r"[A-Z]", letter), f"{game}: the manifest's rule_letter is {letter!r}"
        assert letters.count(letter) == 1, f"{game}: rule_letter {letter!r} is another game's too"
        assert (DOCS / "rules" / f"{game}.md").is_file(), f"docs/rules/{game}.md is missing"


@pytest.mark.parametrize("game", GAMES)
def test_rules_doc_states_each_rule_once_and_exactly_the_tested_ids(game: str) -> None:
    ids = defined_ids(game)
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    assert not dupes, f"docs/rules/{game}.md states {dupes} more than once"
    tested = ids_with_a_test(game)
    assert tested, f"tests/test_{game}_rules.py has no test_<ID>_ tests"
    assert set(ids) == tested, (
        f"docs/rules/{game}.md rules without a test: {sorted(set(ids) - tested)}; "
        f"tested ids missing from the doc: {sorted(tested - set(ids))}"
    )
    assert not set(ids) & unused_ids(game), "an id is both a rule and unused"


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_the_code_cites_is_in_the_rules_doc(game: str) -> None:
    known = set(defined_ids(game)) | unused_ids(game)
    cited = cited_ids(game)
    assert cited, "the code cites no rule id"
    missing = {i: sorted(where) for i, where in cited.items() if i not in known}
    assert not missing, f"rule ids cited in the code but not in docs/rules/{game}.md: {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_stated_sizes_are_the_envs(game: str) -> None:
    actions, obs = stated_sizes(game)
    env = make_env(game)
    agent = env.possible_agents[0]
    spec = envs.get_spec(game)
    assert actions == env.action_space(agent).n == spec.engine_cls.num_actions
    assert obs == env.observation_space(agent)["observation"].shape[0] == spec.obs_size


@pytest.mark.parametrize("game", GAMES)
def test_observation_table_adds_up_to_the_observation_size(game: str) -> None:
    rows = table_rows(section(rules_doc(game), "Observation"))
    total = 0
    for part, size, *_ in rows:
        factors = re.fullmatch(r"(\d+)(?: x (\d+))?", size)
        assert factors, f"{game} observation part {part!r}: size {size!r} is not 'N' or 'N x M'"
        total += int(factors.group(1)) * int(factors.group(2) or 1)
    assert total == stated_sizes(game)[1] == envs.get_spec(game).obs_size


def text_pattern(form: str) -> re.Pattern[str]:
    """``target N`` -> a regex: upper-case words are placeholders, the rest is literal."""
    words = form.split()
    return re.compile(
        " ".join(r"\S+" if re.fullmatch(r"[A-Z]+", w) else re.escape(w) for w in words)
    )


@pytest.mark.parametrize("game", GAMES)
def test_action_table_matches_the_engine(game: str) -> None:
    env = make_env(game)
    unwrapped = env.unwrapped
    n = env.action_space(env.possible_agents[0]).n
    rows = table_rows(section(rules_doc(game), "Actions"))
    covered: list[int] = []
    examples = 0
    for indices, text, _meaning, example in rows:
        span = re.fullmatch(r"(\d+)(?:-(\d+))?", indices)
        assert span, f"{game}: index cell {indices!r} is not 'I' or 'I-J'"
        lo, hi = int(span.group(1)), int(span.group(2) or span.group(1))
        form = re.fullmatch(r"`([^`]+)`", text)
        assert form, f"{game}: text cell {text!r} is not one `form`"
        pattern = text_pattern(form.group(1))
        for a in range(lo, hi + 1):
            described = unwrapped.describe_action(a)
            assert pattern.fullmatch(described), f"{game}: action {a} is {described!r}, not {text}"
        covered.extend(range(lo, hi + 1))
        for shown, index in re.findall(r"`([^`]+)` = (\d+)", example):
            assert lo <= int(index) <= hi, f"{game}: example {shown!r} outside its row {indices}"
            assert unwrapped.parse_action(shown) == int(index), f"{game}: {shown!r} is not {index}"
            assert unwrapped.describe_action(int(index)) == shown
            examples += 1
    assert sorted(covered) == list(range(n)), f"{game}: the rows do not cover 0..{n - 1} once"
    assert examples >= len(rows), f"{game}: every row needs at least one example"


# ---- README, links, paths, nothing outside ----------------------------------------------------------


def markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def test_readme_is_short_and_points_at_the_docs() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    assert text.lstrip().startswith("# cardarena")
    head = "\n".join(text.splitlines()[:8])
    assert "make demo" in head and "make test" in head, "the two commands stay at the very top"
    for target in (
        "docs/ARCHITECTURE.md",
        "docs/results/README.md",
        "docs/ADDING_A_GAME.md",
        "docs/games.md",
    ):
        assert f"]({target})" in text, f"README does not link {target}"
    results = (DOCS / "results" / "README.md").read_text(encoding="utf-8")
    for game in GAMES:  # a game's results page, once it has one, is linked from the index
        if (DOCS / "results" / f"{game}.md").exists():
            assert f"]({game}.md)" in results, f"docs/results/README.md does not link {game}.md"


def rule_range(game: str) -> str:
    numbers = sorted(int(i[1:]) for i in defined_ids(game))
    letter = GAMES[game]
    return f"{letter}{numbers[0]}-{letter}{numbers[-1]}" if numbers else "-"


def games_table() -> str:
    """The games page's table, from the manifests (and the rules docs' rule ids)."""
    lines = [
        "| game | players | kind | rules | actions / obs | results |",
        "|---|---|---|---|---|---|",
    ]
    for game in envs.names():
        spec = envs.get_spec(game)
        cls = spec.engine_cls
        results = (
            f"[{game}](results/{game}.md)" if (DOCS / "results" / f"{game}.md").exists() else "-"
        )
        lines.append(
            f"| `{game}` | {cls.min_players}-{cls.max_players} | {spec.summary} "
            f"| [{rule_range(game)}](rules/{game}.md) | {cls.num_actions} / {spec.obs_size} "
            f"| {results} |"
        )
    return "\n".join(lines) + "\n"


TABLE_START, TABLE_END = "<!-- games: start -->\n", "<!-- games: end -->\n"


def write_games_page() -> None:
    text = GAMES_PAGE.read_text(encoding="utf-8")
    head, rest = text.split(TABLE_START, 1)
    _, tail = rest.split(TABLE_END, 1)
    GAMES_PAGE.write_text(head + TABLE_START + games_table() + TABLE_END + tail, encoding="utf-8")


def test_games_page_is_the_manifests_table() -> None:
    text = GAMES_PAGE.read_text(encoding="utf-8")
    assert TABLE_START in text and TABLE_END in text, "docs/games.md lost its table markers"
    shown = text.split(TABLE_START, 1)[1].split(TABLE_END, 1)[0]
    assert shown == games_table(), (
        "docs/games.md is not what the manifests say: python -m tests.test_docs --write\n"
        + games_table()
    )


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files_that_exist(path: Path) -> None:
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file = target.split("#", 1)[0]
        if not (path.parent / file).exists():
            broken.append(target)
    assert not broken, f"{path.relative_to(ROOT)} links to missing files: {broken}"


TOP = ("envs/", "agents/", "tests/", "configs/", "bench/", "docs/")
#: paths the docs name that a run creates, not the repository
MADE_BY_RUNS = ("bench/results/",)


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_repository_paths_named_in_the_docs_exist(path: Path) -> None:
    missing = []
    for token in re.findall(r"`([^`\s]+)`", path.read_text(encoding="utf-8")):
        name, _, test_name = token.partition("::")
        if not name.startswith(TOP) or name.startswith(MADE_BY_RUNS):
            continue
        if re.search(r"\*|[A-Z]{2,}|\.\.\.|<(?!game>)", name):  # a pattern (NAME.zip, *.yaml, <k>)
            continue
        for game in GAMES if "<game>" in name else [None]:
            real = name.replace("<game>", game) if game else name
            file = ROOT / real
            if not file.exists():
                missing.append(real)
            elif test_name and f"def {test_name}(" not in file.read_text():
                missing.append(token)
    assert not missing, f"{path.relative_to(ROOT)} names paths that do not exist: {missing}"


def repository_files() -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            check=True,
        ).stdout
        return [ROOT / p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        top = {".git", ".venv", "runs", "results", "replays", ".pytest_cache", ".ruff_cache"}
        return [
            p
            for p in ROOT.rglob("*")
            if p.is_file()
            and p.relative_to(ROOT).parts[0] not in top
            and "__pycache__" not in p.parts
        ]


def test_no_file_points_outside_the_repository() -> None:
    offenders = []
    for path in repository_files():
        if not path.is_file():
            continue
        data = path.read_bytes()
        if any(pattern in data for pattern in OUTSIDE):
            offenders.append(str(path.relative_to(ROOT)))
    assert not offenders, (
        "these files point at a folder users do not have (the rules live in docs/rules/): "
        f"{sorted(offenders)}"
    )


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--write"]:
        write_games_page()
        print(f"wrote {GAMES_PAGE.relative_to(ROOT)}")
