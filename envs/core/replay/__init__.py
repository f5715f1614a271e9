"""The replay file format: a game saved as JSON lines, written while it is played, read back and
checked against the engine (:func:`verify`), so a rules change shows up as a readable difference.
The viewer and its command line are ``agents/tools/replay.py``; the files are plain JSON, read
with :func:`json.loads`, so nothing in them can run.

The file, one JSON object per line:

===========  =====================================================================================
line         fields
===========  =====================================================================================
header       ``{"type": "header", "format": 2, "game", "version", "options"`` (engine options,
             ``num_players`` included) ``, "reset_options"`` (``new_game`` options; usually {})
             ``, "seed"`` (the deal: ``new_game(np.random.default_rng(seed), reset_options)``)
             ``, "players"`` (a name per seat) ``, "source", "check_every", "initial"`` (the
             whole ``to_dict()`` at the start: the deck order (``draw_pile``, top first), every
             hand and the RNG, so a replay does not depend on how the engine shuffles)
action       ``{"seat": s, "action": "hit", "digest": d}``, one per decision in order; ``d`` is a
             short hash of ``to_dict()`` (8 hex digits) and of the legal actions (4) after it;
             format 3: ``"note"``, a JSON object the agent left on the decision, when it left
             one (a language model's transcript: ``agents/outside/llm.py``); one longer than
             ``MAX_NOTE_CHARS`` as JSON is written ``{"cut": size}``
check        ``{"type": "check", "step": k, "to_move", "decision", "legal"`` (texts) ``, "scores",
             "zones"`` (every card zone; a long one as size and hash) ``, "fields"`` (a short
             hash per ``to_dict()`` field)``}`` right after action ``k``, every ``check_every``
             actions and after the last one of a finished game: what a difference is explained with
result       ``{"type": "result", "steps", "scores", "winners", "returns"}`` (absent when a game was
             left unfinished)
end          ``{"type": "end", "lines", "steps", "finished"}``: the last line (format 2), written
             when the file is closed: how many lines come before it, how many actions, and whether
             the game finished. A file without it was cut short (a process killed while writing).
===========  =====================================================================================

Format 2 added the ``end`` line, format 3 the optional ``note`` of an action line; format 1 and 2
files are still read (a note in a format 1 or 2 file is refused: no writer of theirs wrote one). A format 1 file
cannot tell a cut file from a game left unfinished, so :func:`verify` takes one without a result
line for cut short.

Reading checks every line (JSON, types, keys, seats in range, a check right after its action,
nothing after the end) and raises a :class:`ReplayFormatError` subclass naming the line:
:class:`ReplayHeaderError` (header, game, options), :class:`ReplayLineError` (a malformed line),
:class:`ReplayTruncatedError` (lines missing: cut short or dropped). :func:`verify` never raises:
it returns a :class:`Verdict` whose :meth:`Verdict.line` is one line per file.

Verifying deals the game again from the seed and compares the deal with ``initial``; if the deal
differs (a changed shuffle), that is reported and the rules are still checked from the recorded
``initial`` state. Then each action text is parsed and applied: the first place where the seat to
act, the legality of the recorded action, a digest, a check or the result differs is reported
with expected and got values.
"""

from cardarena.envs.core.replay.format import (  # noqa: F401  (the format's names, in one place)
    CHECK_EVERY,
    FORMAT,
    MAX_NOTE_CHARS,
    READS,
    ZONE_SHOWN,
    ReplayWriter,
    _canon,
    _dumps,
    _hash,
    _zone,
    agent_note,
    make_check,
    make_result,
    record_game,
    replay_name,
    slug,
    state_digest,
)
from cardarena.envs.core.replay.reader import (  # noqa: F401  (the format's names, in one place)
    MAX_CHECK_EVERY,
    MAX_SEED,
    Replay,
    ReplayFormatError,
    ReplayHeaderError,
    ReplayLineError,
    ReplayTruncatedError,
    _is_int,
    _is_number,
    _LineReader,
    _number_list,
    _read_header,
    _read_line,
    _shown,
    _str_list,
)
from cardarena.envs.core.replay.verify import (  # noqa: F401  (the format's names, in one place)
    MAX_SHOWN,
    MAX_VERDICT,
    Verdict,
    _close,
    _seat_label,
    _short,
    _verify,
    compare_check,
    diff_values,
    verify,
)
