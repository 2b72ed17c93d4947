"""``genial play``: a game at the terminal for 1–4 seats, any mix of humans and bots.

A human sees the board (rows labelled with ``r`` and the range of ``q``), the tracks, their
own rack and a short list of legal moves, best first, and answers with a number from the
list, a move's text (``R0,-4+B1,-4``, ``swap``, ``keep``) or a command (``help``). Input
is read line by line from stdin and everything is written to stdout, so a script can play.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
import tempfile
import traceback
from collections.abc import Sequence
from typing import IO, Any

from .. import bots
from .._core import IllegalMoveError, Move, Tile
from ..choices import Choice, ordered_choices, rank_choices
from ..colors import Color
from ..files import write_atomic
from ..game import Game, check_seed
from ..records import RecordError, from_record, read_record, to_record
from ..refusals import refusal_text
from ..render import (
    board_text,
    end_title,
    game_board_text,
    rack_text,
    ranking_text,
    tracks_text,
    variant_title,
)
from ..translation import LANGUAGES, from_environment, language_of, ntr, tr, use
from ..variants import variants
from .common import (
    add_rule_flags,
    bots_help,
    closed_pipe_safe,
    color_wanted,
    error,
    examples,
    quiet_stdout,
    remember_game,
    rule_flags_given,
    rules_from_flags,
    split_bot_specs,
)

__all__ = ["register", "run_play", "rank_choices", "ordered_choices", "Choice", "Table"]

HUMAN = "human"
_CELL = re.compile(r"\s*-?[0-9]{1,4}\s*,\s*-?[0-9]{1,4}\s*")
_MAX_DIGITS = 9  # more than any move list is long


def _is_number(text: str) -> bool:
    """ASCII digits only: ``"²".isdigit()`` is true, but ``int("²")`` fails."""
    return text.isascii() and text.isdigit()


_SEED_MASK = (1 << 64) - 1
_AUTOSAVE_TRIES = 1000  # names tried per folder: genial-autosave-SEED.json, -2, -3, ...
_TAKEN = "the file exists"


def _help() -> str:
    """The ``help`` command's text, in the language in use."""
    return tr(
        """\
Enter one of:
  3                    play move number 3 of the list (a number listed this turn)
  R0,-4+B1,-4          play a move by its text: colour letter and cell q,r of each half
  swap | keep          answer a swap offer
  list [N|all]         show the N best moves (default 30) or all of them
  list TILE | list q,r the moves with a tile of your rack (list RB) or covering a cell (list 2,-3)
  hint                 what the expert level would play, and its win chance
  undo                 take back your last turn and the bots' replies (against bots only)
  board                show the board again
  save FILE            save the game as a JSON record (resume with: genial play --resume FILE)
  quit                 leave the game (an unfinished game is saved: the message says where)
Cells are (q, r): each board row is one r (labelled on the left), q grows to the right
(its range is given on the right). Neighbours of (q, r): (q±1, r), (q, r±1), (q+1, r-1), (q-1, r+1).
Moves are listed best first: those the expert level's search looked at, with their win
chance, then the others by the lowest colours after the move (then points)."""
    )


class _Quit(Exception):
    """The human left (``quit`` or end of input)."""


class Table:
    """The seats, the game and the terminal; `run` plays until the game ends or a human quits."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        *,
        bot_seed: int,
        inp: IO[str],
        out: IO[str],
        color: bool = False,
        show: int = 8,
    ) -> None:
        if len(seats) != game.players:
            raise ValueError(
                tr("{seats} seats given for a {players}-player game").format(seats=len(seats), players=game.players)
            )
        self.game = game
        self.seats = list(seats)
        self.bots = {
            seat: bots.parse_bot(name, (bot_seed + 1 + seat) & _SEED_MASK)
            for seat, name in enumerate(seats)
            if name != HUMAN
        }
        self.inp = inp
        self.out = out
        self.color = color
        self.show = show
        # The numbers listed this turn: only those can be picked by number.
        self._shown: set[int] = set()
        self.echo = not (hasattr(inp, "isatty") and inp.isatty())
        # Where the game was last saved (by `save FILE`, or the record resumed), and after
        # how many moves: an unfinished game is saved there again when the program ends.
        self.save_path: str | None = None
        self.saved_moves = -1
        self._keep_failed = False

    # ----- output ----------------------------------------------------------------------

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def seat_name(self, seat: int) -> str:
        kind = self.seats[seat]
        if kind == HUMAN and self._one_human():
            return tr("player {seat} (you)").format(seat=seat)
        if kind == HUMAN:
            return tr("player {seat} (human)").format(seat=seat)
        return tr("player {seat} ({bot})").format(seat=seat, bot=kind)

    def _one_human(self) -> bool:
        return self.seats.count(HUMAN) == 1

    def show_board(self, seat: int) -> None:
        game = self.game
        self.say(game_board_text(game, color=self.color, coords=True))
        self.say()
        for line in tracks_text(game, color=self.color):
            self.say(line)
        phase = {
            "place": tr("{player} to place a tile; bag {bag}"),
            "bonus": tr("{player} to place a BONUS tile (Ingenious!); bag {bag}"),
            "swap_offer": tr("{player} may swap; bag {bag}"),
        }.get(game.phase, tr("{player} to place a tile; bag {bag}"))
        self.say(phase.format(player=self.seat_name(seat), bag=game.bag_size))
        self.say(tr("your rack: {rack}").format(rack=rack_text(game.rack(seat), color=self.color)))
        if game.phase in ("place", "bonus") and not game._state.has_placed(seat):
            self.say(tr("first placement: the tile must touch a printed symbol that no tile touches yet"))
        if game.phase == "place" and Move.swap() in game.legal_moves():
            self.say(tr("you may swap your rack instead of placing: type swap"))
        if game.phase == "swap_offer":
            lowest = self._lowest(seat)
            self.say(
                ntr(
                    "your rack shows none of your lowest colour ({colors}): swap the whole rack, or keep it?",
                    "your rack shows none of your lowest colours ({colors}): swap the whole rack, or keep it?",
                    len(lowest),
                ).format(colors=", ".join(c.title for c in lowest))
            )

    def _lowest(self, seat: int) -> list[Color]:
        scores = self.game.scores[seat]
        low = min(scores)
        return [Color(i) for i, v in enumerate(scores) if v == low]

    def list_choices(self, choices: Sequence[Choice], which: str = "", limit: int | None = None) -> None:
        """Numbered moves: the first ``limit``, ``all``, a number of them, or those with a tile."""
        picked: list[tuple[int, Choice]] = list(enumerate(choices, start=1))
        which = which.strip()
        if which.lower() == "all":
            limit = None
        elif _is_number(which):
            limit = None if len(which) > _MAX_DIGITS else max(1, int(which))  # more than all: all
        elif _CELL.fullmatch(which):
            q, r = (int(v) for v in which.split(","))
            picked = [(i, c) for i, c in picked if c.move.cells is not None and (q, r) in c.move.cells]
            limit = None
            if not picked:
                self.say(tr("no legal move covers cell {q},{r}").format(q=q, r=r))
                return
        elif which:
            try:
                tile = Tile.parse(which)
            except ValueError as e:
                self.say(tr("cannot list {text}: {reason}").format(text=repr(which), reason=refusal_text(e)))
                return
            picked = [(i, c) for i, c in picked if c.move.tile == tile]
            limit = None
            if not picked:
                self.say(tr("no legal move uses a {tile} tile").format(tile=tile))
                return
        shown = picked if limit is None else picked[:limit]
        self._shown.update(i for i, _ in shown)
        width = len(str(len(choices)))
        for i, choice in shown:
            self.say(f"  {i:>{width}}. {choice.describe()}")
        if len(shown) < len(picked):
            more = len(picked) - len(shown)
            self.say(
                "  ... "
                + ntr(
                    "{n} more (list N, list all, list TILE like list RB, list q,r)",
                    "{n} more (list N, list all, list TILE like list RB, list q,r)",
                    more,
                ).format(n=more)
            )

    # ----- turns -----------------------------------------------------------------------

    def run(self) -> int:
        game = self.game
        try:
            self.say(
                ntr(
                    "genial: {variant} game, {n} player ({seats}), seed {seed}; type help at your turn",
                    "genial: {variant} game, {n} players ({seats}), seed {seed}; type help at your turn",
                    game.players,
                ).format(
                    variant=variant_title(game.variant),
                    n=game.players,
                    seats=", ".join(self.seats),
                    seed=game.seed,
                )
            )
            if game.moves:
                self.say(
                    ntr("resuming after {n} move", "resuming after {n} moves", len(game.moves)).format(
                        n=len(game.moves)
                    )
                )
            while not game.is_over:
                seat = game.current_player
                if seat in self.bots:
                    bot = self.bots[seat]
                    # Built-in bots read the game without its hidden tiles; any other bot
                    # (an engine) gets the seat's view only.
                    move = bot.choose(game if isinstance(bot, bots.BuiltinBot) else bots.GameView(game, seat))
                    self._report(seat, move, game.play(move).gains_by_color())
                else:
                    self.human_turn(seat)
                self._keep()
        except bots.Forfeit as e:
            self.say(tr("{player} forfeits: {reason}").format(player=self.seat_name(seat), reason=e.reason))
            ranks = bots.forfeit_ranks(game, seat)
            places = ", ".join(f"{self.seat_name(p)} {r + 1}" for p, r in enumerate(ranks))
            self.say(tr("final places: {places}").format(places=places))
            return 0
        except _Quit as e:
            self.say(str(e))
            self.autosave()
            return 0
        except KeyboardInterrupt:
            self.say("\n" + tr("interrupted: game left unfinished"))
            self.autosave()
            return 130
        except BrokenPipeError:
            # The reader of the output went away (`genial play ... | head`): keep the game
            # and say where on stderr, without a traceback.
            quiet_stdout()
            self.out = sys.stderr
            self.autosave()
            return 1
        except Exception:  # a bug: keep the game, then report it
            traceback.print_exc()
            self.say(tr("genial play stopped on an internal error (above)"))
            self.autosave()
            return 1
        finally:
            for bot in self.bots.values():
                close = getattr(bot, "close", None)
                if callable(close):
                    close()
        self.finish()
        self.save_finished()
        return 0

    def _keep(self) -> None:
        """After every move: the file the game was saved to (``save FILE``, or the record
        resumed) is brought up to date, so that it holds the game until its end."""
        if self.save_path is None or self.saved_moves == len(self.game.moves):
            return
        failed = self._write(self.save_path)
        if failed is not None and not self._keep_failed:
            self._keep_failed = True
            self.say(tr("cannot keep {path} up to date: {reason}").format(path=self.save_path, reason=failed))

    def save_finished(self) -> None:
        """Saves a finished game and says where: in its own file (``save FILE``, the record
        resumed), else in ``genial-game-SEED.json`` in the current directory (or the
        temporary one), ``-2``, ``-3``, ... added when that name holds another game; the
        same game played again finds its own file."""
        saved = tr("game saved to {path} (review it with: genial analyse --last)")
        if self.save_path is not None and self._write(self.save_path) is None:
            self.say(saved.format(path=self.save_path))
            return
        path = self._save_new("genial-game")
        if path is None:
            self.say(tr("the game could not be saved: no writable place found"))
        else:
            self.say(saved.format(path=path))

    def autosave(self) -> None:
        """Keeps an unfinished game whatever ends the program, and says how to resume it:
        in the file it was last saved to or resumed from (this game's own), else in a new
        file ``genial-autosave-SEED.json`` in the current directory (or the temporary one),
        ``-2``, ``-3``, ... added when that name is taken: an earlier game is never
        overwritten, even one with the same seed."""
        if self.game.is_over:
            return
        saved = tr("game saved to {path} (resume with: genial play --resume {path})")
        if self.save_path is not None and self.saved_moves == len(self.game.moves):
            self.say(
                tr("the game is saved in {path} (resume with: genial play --resume {path})").format(path=self.save_path)
            )
            return
        if self.save_path is not None and self._write(self.save_path) is None:
            self.say(saved.format(path=self.save_path))
            return
        path = self._save_new("genial-autosave")
        if path is None:
            self.say(tr("the game could not be saved: no writable place found"))
        else:
            self.say(saved.format(path=path))

    def _save_new(self, stem: str) -> str | None:
        """Saves the game in a new file ``STEM-SEED.json`` (``-2``, ``-3``, ... when taken by
        another game) in the current directory, else the temporary one; its path, or
        ``None`` where nothing could be written. A file that holds this very record already
        is taken as this game's own."""
        mine = self._record_text()
        for folder in ("", tempfile.gettempdir()):
            for n in range(1, _AUTOSAVE_TRIES + 1):
                name = f"{stem}-{self.game.seed}{'' if n == 1 else f'-{n}'}.json"
                path = os.path.join(folder, name)
                failed = self._write(path, new=True)
                if failed is None:
                    return path
                if failed != _TAKEN:
                    break  # not writable here: try the next folder
                try:
                    with open(path, encoding="utf-8") as f:
                        same = f.read() == mine
                except (OSError, UnicodeDecodeError):
                    same = False
                if same:
                    self._saved(path)
                    return path
        return None

    def _record_text(self) -> str:
        record = to_record(self.game)
        record["seats"] = list(self.seats)
        return json.dumps(record, indent=1) + "\n"

    def _saved(self, path: str) -> None:
        self.save_path = path
        self.saved_moves = len(self.game.moves)
        remember_game(path)

    def _write(self, path: str, *, new: bool = False) -> str | None:
        """Writes the record with its seats to ``path``, replacing it whole (with ``new``,
        only into a file that does not exist yet); the error's text if that failed,
        `_TAKEN` if the file exists."""
        text = self._record_text()
        try:
            if new:
                with open(path, "x", encoding="utf-8"):
                    pass  # the name is ours now
        except FileExistsError:
            return _TAKEN
        except OSError as e:
            return str(e.strerror or e)
        try:
            write_atomic(path, text)
        except OSError as e:
            if new:
                with contextlib.suppress(OSError):
                    os.unlink(path)
            return str(e.strerror or e)
        self._saved(path)
        return None

    def _undo(self, seat: int) -> bool:
        """Takes back everything since the start of ``seat``'s last turn: its own moves and
        the bots' replies. Only when every other seat is a bot; whether the board changed."""
        game = self.game
        if not self._one_human():
            self.say(tr("undo works when every other seat is a bot"))
            return False
        taken: list[Move] = []
        while game.moves:
            taken.append(game.pop())
            if game.current_player == seat and game.phase == "place":
                self.say(
                    ntr(
                        "took back {n} move: your turn again", "took back {n} moves: your turn again", len(taken)
                    ).format(n=len(taken))
                )
                return True  # the turn starts over with the board shown anew
        for move in reversed(taken):  # nothing of this seat's to take back: as it was
            game.play(move)
        self.say(tr("you have not moved yet: nothing to take back"))
        return False

    def _report(self, seat: int, move: Move, gains: dict[Color, int]) -> None:
        pts = " ".join(f"{c.letter}+{v}" for c, v in sorted(gains.items()))
        self.say(tr("{player}: {move}").format(player=self.seat_name(seat), move=move) + (f"  {pts}" if pts else ""))

    def _read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        # Bytes that are not UTF-8 read as U+FFFD (see `run_play`), lone surrogates too:
        # such a line then fails as a move or command like any other unreadable entry.
        line = self.inp.readline().encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        if not line:
            self.say()
            raise _Quit(tr("end of input: game left unfinished"))
        if not self.echo:
            return line.strip()
        # Input from a file or a pipe is not echoed by a terminal: echo it so that the
        # transcript reads like a session.
        self.say(line.rstrip("\r\n"))
        return line.strip()

    def human_turn(self, seat: int) -> None:
        game = self.game
        self.say()
        self.show_board(seat)
        choices = ordered_choices(game)
        self._shown = set()
        self.list_choices(choices, limit=self.show)
        while True:
            line = self._read(tr("player {seat}> ").format(seat=seat))
            if not line:
                continue
            try:
                if self._command(seat, line, choices):
                    return
            except (_Quit, KeyboardInterrupt, BrokenPipeError):
                raise
            except Exception as e:
                self.say(
                    tr("cannot do {text}: {error}: {reason}").format(
                        text=repr(line[:40]), error=type(e).__name__, reason=e
                    )
                )
                self.say(tr("type a number from the list, a move like R0,-4+B1,-4, or help"))

    def _command(self, seat: int, line: str, choices: list[Choice]) -> bool:
        """Carries out one line of input; whether the turn is over."""
        game = self.game
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command in ("help", "?", "h"):
            self.say(_help())
        elif command in ("quit", "exit", "q"):
            raise _Quit(tr("game left unfinished"))
        elif command in ("list", "ls", "l"):
            self.list_choices(choices, rest, limit=30)
        elif command == "board":
            self.show_board(seat)
        elif command == "undo":
            return self._undo(seat)
        elif command == "hint":
            # The list's first entry: the expert level's pick from this seat's view.
            self.say(tr("hint: 1. {move}").format(move=choices[0].describe()))
            self._shown.add(1)  # shown now: it can be picked by its number
        elif command == "save":
            self.save(rest.strip())
        elif _is_number(line):
            # More digits than any list is long: no such number (and no int of thousands
            # of digits, which Python refuses to convert).
            number = int(line) if len(line) <= _MAX_DIGITS else 0
            if not 1 <= number <= len(choices):
                shown = line if len(line) <= 12 else line[:8] + "..."
                self.say(
                    tr("no move number {number}: pick 1 to {last} (list all shows them)").format(
                        number=shown, last=len(choices)
                    )
                )
                return False
            if number not in self._shown:
                # A typo must not play one of hundreds of moves the player has not seen.
                head = next(k for k in range(len(choices) + 1) if k + 1 not in self._shown)
                listed = tr("1 to {last}").format(last=head) if head else tr("none listed yet")
                self.say(
                    tr(
                        "move {number} is not in the list shown ({listed}): list all, or list {number}, shows it first"
                    ).format(number=number, listed=listed)
                )
                return False
            self._play(seat, choices[number - 1].move)
            return True
        else:
            try:
                move = Move.parse(line)
                game.check(move)
            except (IllegalMoveError, ValueError) as e:
                self.say(tr("not a legal move: {reason}").format(reason=refusal_text(e)))
                self.say(tr("type a number from the list, a move like R0,-4+B1,-4, or help"))
                return False
            self._play(seat, move)
            return True
        return False

    def _play(self, seat: int, move: Move) -> None:
        result = self.game.play(move)
        self._report(seat, move, result.gains_by_color())
        if result.bonuses_earned:
            n = result.bonuses_earned
            self.say(ntr("Ingenious! {n} bonus placement", "Ingenious! {n} bonus placements", n).format(n=n))
        if result.bonuses_lost:
            n = result.bonuses_lost
            self.say(
                ntr(
                    "{n} bonus placement lost: no legal placement", "{n} bonus placements lost: no legal placement", n
                ).format(n=n)
            )
        if result.swapped:
            self.say(tr("swapped: new rack {rack}").format(rack=rack_text(self.game.rack(seat), color=self.color)))

    def save(self, path: str) -> None:
        if not path:
            self.say(tr("save needs a file name: save FILE"))
            return
        error = self._write(path)
        if error is not None:
            self.say(tr("cannot save to {path}: {reason}").format(path=path, reason=error))
            return
        self.say(tr("saved to {path} (resume with: genial play --resume {path})").format(path=path))

    def finish(self) -> None:
        game = self.game
        self.say()
        self.say(board_text(game.board, color=self.color))
        self.say()
        for line in tracks_text(game, color=self.color):
            self.say(line)
        self.say(
            ntr("game over ({end}) after {n} move", "game over ({end}) after {n} moves", len(game.moves)).format(
                end=end_title(game.end), n=len(game.moves)
            )
        )
        if game.rules.scored_alone:
            self.say(tr("result: {score} (your lowest colour)").format(score=game.lowest_score()))
            return
        for line in ranking_text(game, [self.seat_name(p) for p in range(game.players)]):
            self.say(line)


def _parse_seats(text: str | None, players: int | None) -> list[str] | None:
    if text is None:
        return None
    if any(not s.strip() for s in text.split(",")):
        raise ValueError(f"--seats {text!r}: give one name per seat, like human,greedy")
    # Bot specs as everywhere: a comma before key=value continues the bot's options.
    seats = [HUMAN if s.lower() == HUMAN else s for s in split_bot_specs(text)]
    if players is not None and len(seats) != players:
        raise ValueError(f"--seats lists {len(seats)} seats but --players is {players}")
    return seats


def _check_seats(seats: Sequence[str]) -> None:
    for spec in seats:
        if spec != HUMAN:
            bots.parse_bot(spec, 0)  # raises ValueError naming the known bots and options


def _resume(args: argparse.Namespace) -> tuple[Game, list[str]]:
    clashing = [name for name in ("variant", "players", "seed") if getattr(args, name) is not None] + rule_flags_given(
        args
    )
    if clashing:
        flags = ", ".join("--" + n.replace("_", "-") for n in clashing)
        raise ValueError(f"{flags}: the rules come from the record when resuming")
    data = read_record(args.resume)
    game = from_record(data)
    seats = _parse_seats(args.seats, game.players)
    if seats is None:
        saved = data.get("seats")
        if saved is None:
            seats = [HUMAN] * game.players
        elif not isinstance(saved, list) or len(saved) != game.players or not all(isinstance(s, str) for s in saved):
            raise RecordError(f"record field 'seats' must list {game.players} seat names")
        else:
            seats = [s.lower() for s in saved]
    return game, seats


@closed_pipe_safe
def run_play(args: argparse.Namespace, inp: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """``genial play``: the game in the language of ``--lang``, else of the environment
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``); English for one without a catalogue."""
    lang = getattr(args, "lang", None)
    with use(language_of(lang) if lang else from_environment()):
        return _run_play(args, inp, out)


def _run_play(args: argparse.Namespace, inp: IO[str] | None, out: IO[str] | None) -> int:
    if inp is None:
        inp = sys.stdin
        if isinstance(inp, io.TextIOWrapper):
            inp.reconfigure(errors="replace")  # bytes that are not UTF-8 must not end the game
    out = sys.stdout if out is None else out
    try:
        if args.resume is not None:
            game, seats = _resume(args)
        else:
            seats_given = _parse_seats(args.seats, args.players)
            players = args.players or (len(seats_given) if seats_given else None)
            rules = rules_from_flags(args, args.variant, players)
            seats = seats_given or [HUMAN] + ["greedy"] * (rules.players - 1)
            game = Game(seed=args.seed, rules=rules)
        _check_seats(seats)
    except RecordError as e:
        return error(tr("bad record {path}: {reason}").format(path=args.resume, reason=e))
    except OSError as e:
        return error(tr("cannot read {path}: {reason}").format(path=args.resume, reason=e.strerror or e))
    except (ValueError, TypeError) as e:
        return error(str(e))
    seed = game.seed if game.seed is not None else 0
    table = Table(game, seats, bot_seed=seed, inp=inp, out=out, color=color_wanted(args.color, out), show=args.show)
    if args.resume is not None:
        table.save_path, table.saved_moves = args.resume, len(game.moves)
    return table.run()


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{n} is negative")
    return n


def _seed(text: str) -> int:
    try:
        return check_seed(int(text, 0))
    except (ValueError, TypeError) as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def register(subparsers: Any) -> None:
    """Adds ``genial play`` to the command line's subcommands."""
    p = subparsers.add_parser(
        "play",
        help="play a game at the terminal: humans and bots, any variant",
        description="Play Ingenious at the terminal. Each seat is a human or a bot. Type help at your turn. "
        + bots_help(),
        epilog=examples(
            "genial play                                   # you against a greedy bot",
            "genial play --seats human,expert,mcts:iterations=2000 --seed 7",
            "genial play --variant duel --seats human,human   # two people at one terminal",
            "genial play --resume game.json                # after typing: save game.json",
        ),
    )
    p.add_argument("--variant", choices=[v.name for v in variants()], help="the rules (default: standard)")
    p.add_argument("--players", type=int, help="1-4 (default: from --seats, else 2; team 4, solo 1)")
    p.add_argument(
        "--seats",
        help="comma-separated, one per seat: human or a bot with its options, "
        "like human,mcts:iterations=2000,greedy (default: human then greedy bots)",
    )
    p.add_argument("--seed", type=_seed, help="the game's seed (default: random, printed)")
    add_rule_flags(p)
    p.add_argument("--resume", metavar="FILE", help="continue a game saved with save FILE")
    p.add_argument("--show", type=_count, default=8, metavar="N", help="moves listed at each turn (default 8)")
    p.add_argument(
        "--lang",
        metavar="LANG",
        help="the game's language: "
        + ", ".join(f"{code} ({name})" for code, name in LANGUAGES.items())
        + " (default: from LC_ALL, LC_MESSAGES or LANG; English for any other)",
    )
    p.add_argument(
        "--color",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="ANSI colours (default: when writing to a terminal and NO_COLOR is unset)",
    )
    p.set_defaults(func=run_play)
