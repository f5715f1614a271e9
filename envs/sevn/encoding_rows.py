"""What a SEVN seat block takes from the seat's table row alone, memoised per row.

A row's flags (values held, kept non-value cards), its hand score and its card deltas (the
"my next card" part: the banked-score change for each card kind as the seat's next card) are
computed once per distinct ``(values, has_second_chance, *row)`` and kept in :data:`SEAT_PARTS`.
Rows stay put for many steps, but most draws make a new row, so the computation is written for
speed: a row without bonus cards is summed once and its deltas are joined from pieces memoised
per a few of its sums (:func:`_value_deltas`, :func:`_other_deltas`); a row with bonus cards
takes the general :func:`_delta_pair`. Both give the same numbers (same types, 0.0 vs -0.0
included) as scoring the row with each card (``tests/test_sevn_card_deltas.py``).
"""

from __future__ import annotations

from typing import Any

from cardarena.envs.sevn.encoding_tables import (
    HIGH_FLAGS,
    KEPT_BIT,
    KEPT_FLAGS,
    LOW_BITS,
    LOW_FLAGS,
    LOW_MASK,
    PACK_FLAGS,
    PACK_KINDS,
    floats,
)
from cardarena.envs.sevn.rules import (
    BALLAST_M2,
    CARD_VALUE,
    FEATHERWEIGHT,
    FEATHERWEIGHT_POINTS,
    HEAVYWEIGHT,
    HEAVYWEIGHT_POINTS,
    LAST_MODIFIER,
    LAST_VALUE_CARD,
    NUM_CARD_KINDS,
    NUMBER_MASK,
    SEVN_BONUS,
    SEVN_VALUES,
    STRAIGHT,
    STRAIGHT_POINTS_PER_CARD,
    X2,
    hand_score,
    longest_run,
)

ROW_PARTS_MAX = 4096  #: entries of each memo; a memo is emptied when full (a few MiB at most)
#: (values, *row) -> _row_part(values, row): what a seat block takes from the seat's table row
_ROW_PARTS: dict[tuple[int, ...], tuple[Any, ...]] = {}
#: (values, has_second_chance, *row) -> (card_deltas(...), the same /30 and clipped, as the
#: observation holds them, and those as float32 bytes)
_DELTAS: dict[tuple[int, ...], tuple[list[float], list[float], bytes]] = {}
#: (values, has_second_chance, *row) -> (value and kept-card flags as float32 bytes, hand_score,
#: its block entry, distinct values /7, cards /20, card deltas, scaled deltas, those as bytes)
SEAT_PARTS: dict[tuple[int, ...], tuple[Any, ...]] = {}

_BONUS_BIT = {FEATHERWEIGHT: 1, HEAVYWEIGHT: 2, STRAIGHT: 4}
#: the value cards' points once and doubled (x2), numbers and ballast apart
_NUMBER_POINTS = [[m * CARD_VALUE[c] for c in range(BALLAST_M2)] for m in (1, 2)]
_BALLAST_POINTS = [
    [m * CARD_VALUE[c] for c in range(BALLAST_M2, LAST_VALUE_CARD + 1)] for m in (1, 2)
]
_MODIFIER_POINTS = [CARD_VALUE[c] for c in range(X2 + 1, LAST_MODIFIER + 1)]
_ACTION_ZEROS = [0.0] * (FEATHERWEIGHT - LAST_MODIFIER - 1)
assert FEATHERWEIGHT + 2 == STRAIGHT == HEAVYWEIGHT + 1 == NUM_CARD_KINDS - 1
assert X2 == LAST_VALUE_CARD + 1


def _clip(x: float) -> float:
    """Into the observation space's [-1, 2]."""
    return -1.0 if x < -1.0 else (2.0 if x > 2.0 else x)


def _row_part(values: int, row: list[int]) -> tuple[Any, ...]:
    """(value and kept-card flags as float32 bytes, hand_score, its block entry, distinct values
    /7, cards /20) of a table row; memoised in ``_ROW_PARTS`` (rows stay put for many steps)."""
    kept = 0
    for c in row:
        kept |= KEPT_BIT[c]
    flags = LOW_FLAGS[values & LOW_MASK] + HIGH_FLAGS[values >> LOW_BITS] + KEPT_FLAGS[kept]
    flags = floats(flags)
    hs = hand_score(row)
    part = (flags, hs, min(hs / 60.0, 2.0), values.bit_count() / 7.0, min(len(row) / 20.0, 2.0))
    if len(_ROW_PARTS) >= ROW_PARTS_MAX:
        _ROW_PARTS.clear()
    _ROW_PARTS[(values, *row)] = part
    return part


def card_deltas(values: int, row: list[int], has_second_chance: bool) -> list[float]:
    """Banked-score change of a seat in the hand for each card kind as its next card, in points
    (see the "my next card" rows of the observation layout); memoised."""
    key = (values, has_second_chance, *row)
    part = SEAT_PARTS.get(key)
    if part is None:
        part = seat_part(key, values, has_second_chance, row)
    return part[5]


def _bonus_points(bonus: int, count: int, low: int, high: int, bits: int) -> int:
    """S22-S24 of ``hand_score`` from a row's sums (see :func:`_delta_pair`)."""
    points = 0
    if bonus & 1 and count >= 4 and low == count:  # S22
        points += FEATHERWEIGHT_POINTS
    if bonus & 2 and high >= 3:  # S23
        points += HEAVYWEIGHT_POINTS
    if bonus & 4:  # S24
        run = longest_run(bits & NUMBER_MASK)
        if run >= 3:
            points += STRAIGHT_POINTS_PER_CARD * run
    return points


def _row_sums(row: list[int]) -> tuple[int, int, bool, int, int, int, int, int]:
    """``hand_score``'s sums over ``row``: (number total, modifier total, X2 held, bonus bits,
    value bits, numbers held, of them low (<= 6), high (>= 10))."""
    total = modifiers = 0
    doubled = False
    bonus = 0
    bits = 0
    count = low = high = 0
    for c in row:
        if c <= LAST_VALUE_CARD:
            v = CARD_VALUE[c]
            total += v
            bits |= 1 << c
            count += 1
            low += v <= 6
            high += v >= 10
        elif c == X2:
            doubled = True
        elif c <= LAST_MODIFIER:
            modifiers += CARD_VALUE[c]
        elif c in _BONUS_BIT:
            bonus |= _BONUS_BIT[c]
    return total, modifiers, doubled, bonus, bits, count, low, high


def _delta_pair(
    values: int, row: list[int], has_second_chance: bool
) -> tuple[list[float], list[float], bytes]:
    """(:func:`card_deltas`, the same scaled for the observation, those as float32 bytes),
    memoised in ``_DELTAS``.

    ``hand_score([*row, card])`` for every card kind, from the row's sums taken once (what
    ``hand_score`` adds up card by card) plus the card: the same whole numbers, without scoring
    the row 31 times."""
    key = (values, has_second_chance, *row)
    pair = _DELTAS.get(key)
    if pair is not None:
        return pair
    total, modifiers, doubled, bonus, bits, count, low, high = _row_sums(row)
    raw = (2 * total if doubled else total) + modifiers
    points = _bonus_points(bonus, count, low, high, bits) if bonus else 0
    now = raw + points if raw + points > 0 else 0  # hand_score(row)
    sevn = values.bit_count() + 1 == SEVN_VALUES
    out = [0.0] * NUM_CARD_KINDS
    for card in range(LAST_VALUE_CARD + 1):
        if values >> card & 1:
            # a duplicate: S9 bust (S12 saved by a SECOND_CHANCE); a ballast is discarded
            out[card] = 0.0 if has_second_chance or card >= BALLAST_M2 else -float(now)
        else:  # hand_score([*row, card], sevn)
            v = CARD_VALUE[card]
            t = total + v
            after = (2 * t if doubled else t) + modifiers
            if bonus:
                after += _bonus_points(
                    bonus, count + 1, low + (v <= 6), high + (v >= 10), bits | 1 << card
                )
            if sevn:
                after += SEVN_BONUS
            after = (after if after > 0 else 0) - now
            out[card] = max(0.0, after) if card >= BALLAST_M2 else float(after)  # S11
    for card in range(LAST_VALUE_CARD + 1, NUM_CARD_KINDS):
        if card == X2:
            after = 2 * total + modifiers + points
        elif card <= LAST_MODIFIER:
            after = raw + CARD_VALUE[card] + points
        elif card in _BONUS_BIT:
            after = raw + _bonus_points(bonus | _BONUS_BIT[card], count, low, high, bits)
        else:
            continue  # action cards: 0
        out[card] = float((after if after > 0 else 0) - now)
    if len(_DELTAS) >= ROW_PARTS_MAX:
        _DELTAS.clear()
    scaled = [d / 30.0 for d in out]
    scaled = [-1.0 if x < -1.0 else (2.0 if x > 2.0 else x) for x in scaled]  # _clip
    pair = (out, scaled, floats(scaled))
    _DELTAS[key] = pair
    return pair


def _scale(deltas: list[float]) -> list[float]:
    """Deltas as the observation holds them: /30, clipped to [-1, 2]."""
    return [-1.0 if x < -1.0 else (2.0 if x > 2.0 else x) for x in [d / 30.0 for d in deltas]]


#: (base, now, doubled) -> (the value cards' deltas of a row (none held), the same scaled)
_VALUE_DELTAS: dict[tuple[int, int, bool], tuple[list[float], list[float]]] = {}
#: (x2 points, raw, now, bonus points x3) -> (deltas of the cards after the value cards, scaled)
_OTHER_DELTAS: dict[tuple[int, ...], tuple[list[float], list[float]]] = {}


def _value_deltas(base: int, now: int, doubled: bool) -> tuple[list[float], list[float]]:
    """The value cards' part of :func:`_delta_pair` for a row that holds none of them: ``base``
    is the row's points before the card (the SEVN bonus included when it would make seven)."""
    out = [float((a if (a := base + x) > 0 else 0) - now) for x in _NUMBER_POINTS[doubled]]
    out += [max(0.0, (a if (a := base + x) > 0 else 0) - now) for x in _BALLAST_POINTS[doubled]]
    pair = (out, _scale(out))
    if len(_VALUE_DELTAS) >= ROW_PARTS_MAX:
        _VALUE_DELTAS.clear()
    _VALUE_DELTAS[base, now, doubled] = pair
    return pair


def _other_deltas(key: tuple[int, ...]) -> tuple[list[float], list[float]]:
    """The part of :func:`_delta_pair` after the value cards: x2 (``key[0]``: the row's points
    doubled), the modifiers, the action cards (0) and the bonus cards (``key[3:]``: the points
    each would add)."""
    x2, raw, now, *bonuses = key
    out = [float((x2 if x2 > 0 else 0) - now)]
    out += [float((a if (a := raw + x) > 0 else 0) - now) for x in _MODIFIER_POINTS]
    out += _ACTION_ZEROS
    out += [float((a if (a := raw + x) > 0 else 0) - now) for x in bonuses]
    pair = (out, _scale(out))
    if len(_OTHER_DELTAS) >= ROW_PARTS_MAX:
        _OTHER_DELTAS.clear()
    _OTHER_DELTAS[key] = pair
    return pair


#: (values, kept-card mask) -> the seat block's value and kept-card flags as float32 bytes
_FLAGS: dict[tuple[int, int], bytes] = {}


def _flags(values: int, kept: int) -> bytes:
    flags = PACK_FLAGS(
        *LOW_FLAGS[values & LOW_MASK], *HIGH_FLAGS[values >> LOW_BITS], *KEPT_FLAGS[kept]
    )
    if len(_FLAGS) >= ROW_PARTS_MAX:
        _FLAGS.clear()
    _FLAGS[values, kept] = flags
    return flags


def seat_part(key: tuple[int, ...], values: int, second: bool, row: list[int]) -> tuple[Any, ...]:
    """:func:`_row_part` and :func:`_delta_pair` of a seat in one tuple, memoised in
    :data:`SEAT_PARTS` under ``key`` (``(values, second, *row)``).

    A row without bonus cards (nearly all) is summed once; its deltas are joined from memoised
    pieces that depend on a few of its sums only (:func:`_value_deltas`, :func:`_other_deltas`)
    and the values it holds: the same whole numbers as :func:`_delta_pair` (which a row with
    bonus cards takes), the same float types and signs."""
    total = modifiers = bits = count = low = high = kept = 0
    doubled = False
    for c in row:
        if c <= LAST_VALUE_CARD:
            v = CARD_VALUE[c]
            total += v
            bits |= 1 << c
            count += 1
            low += v <= 6
            high += v >= 10
        elif c >= FEATHERWEIGHT:  # a bonus card: the general path
            part = _row_part(values, row) + _delta_pair(values, row, second)
            break
        else:
            kept |= KEPT_BIT[c]
            if c == X2:
                doubled = True
            elif c <= LAST_MODIFIER:
                modifiers += CARD_VALUE[c]
    else:
        raw = (2 * total if doubled else total) + modifiers
        now = raw if raw > 0 else 0  # hand_score(row): no bonus
        base = raw + SEVN_BONUS if values.bit_count() + 1 == SEVN_VALUES else raw
        pair = _VALUE_DELTAS.get((base, now, doubled)) or _value_deltas(base, now, doubled)
        # the bonus cards' points (S22-S24 of hand_score) were the row to take each
        run = longest_run(bits & NUMBER_MASK)
        other = (
            2 * total + modifiers,
            raw,
            now,
            FEATHERWEIGHT_POINTS if count >= 4 and low == count else 0,
            HEAVYWEIGHT_POINTS if high >= 3 else 0,
            STRAIGHT_POINTS_PER_CARD * run if run >= 3 else 0,
        )
        rest = _OTHER_DELTAS.get(other) or _other_deltas(other)
        out = pair[0] + rest[0]
        scaled = pair[1] + rest[1]
        if values:  # the values held: S9 bust (S12 saved by a SECOND_CHANCE); a ballast discarded
            lost = -float(now)
            lost30 = _clip(lost / 30.0)
            held = values
            while held:
                bit = held & -held
                card = bit.bit_length() - 1
                if second or card >= BALLAST_M2:
                    out[card] = scaled[card] = 0.0
                else:
                    out[card] = lost
                    scaled[card] = lost30
                held ^= bit
        part = (
            _FLAGS.get((values, kept)) or _flags(values, kept),
            now,
            min(now / 60.0, 2.0),
            values.bit_count() / 7.0,
            min(len(row) / 20.0, 2.0),
            out,
            scaled,
            PACK_KINDS(*scaled),
        )
    if len(SEAT_PARTS) >= ROW_PARTS_MAX:
        SEAT_PARTS.clear()
    SEAT_PARTS[key] = part
    return part
