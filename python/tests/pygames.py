"""Games written in Python for the tests, following pnlab's game protocol
(docs/python.md)."""

from __future__ import annotations

# The eight lines of the 3×3 board, cells numbered row by row from a1.
LINES = [
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
]


class TicTacToe:
    """Tic-tac-toe with the rules, cell names (a1…c3, column letter and row
    from the top) and move order (free cells in row order) of pnlab's own
    game, its documented evaluation (+1 for a line held by one x, +10
    for two; the same negated for o) and its score range (−1 to 1)."""

    def __init__(self, cells: str = ".........") -> None:
        self.cells = cells

    def to_move(self) -> int:
        return 0 if self.cells.count("x") == self.cells.count("o") else 1

    def winner(self):
        for a, b, c in LINES:
            if self.cells[a] != "." and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return None

    def is_terminal(self) -> bool:
        return self.winner() is not None or "." not in self.cells

    def result(self) -> int:
        return {"x": 1, "o": -1, None: 0}[self.winner()]

    def legal_moves(self) -> list[int]:
        return [i for i, c in enumerate(self.cells) if c == "."]

    def play(self, i: int) -> "TicTacToe":
        mark = "xo"[self.to_move()]
        return TicTacToe(self.cells[:i] + mark + self.cells[i + 1 :])

    def key(self) -> str:
        return self.cells

    def move_name(self, i: int) -> str:
        return "abc"[i % 3] + str(i // 3 + 1)

    def evaluate(self) -> int:
        score = {0: 0, 1: 1, 2: 10, 3: 0}
        total = 0
        for line in LINES:
            marks = [self.cells[i] for i in line]
            x, o = marks.count("x"), marks.count("o")
            if o == 0:
                total += score[x]
            elif x == 0:
                total -= score[o]
        return total

    def score_range(self) -> tuple[int, int]:
        return (-1, 1)

    def __str__(self) -> str:
        return self.cells


class Nim:
    """Normal-play Nim (the player who takes the last object wins): a move
    takes 1 or more objects from one heap. The first player wins exactly
    when the heaps' XOR is not 0 (Bouton 1901). Keyless: every path is its
    own position. No ``to_move``: turns alternate from the first player."""

    def __init__(self, heaps: tuple[int, ...], mover: int = 0) -> None:
        self.heaps = heaps
        self.mover = mover

    def legal_moves(self) -> list[tuple[int, int]]:
        return [(h, n) for h, size in enumerate(self.heaps) for n in range(1, size + 1)]

    def play(self, move: tuple[int, int]) -> "Nim":
        h, n = move
        heaps = list(self.heaps)
        heaps[h] -= n
        return Nim(tuple(heaps), 1 - self.mover)

    def is_terminal(self) -> bool:
        return sum(self.heaps) == 0

    def result(self) -> int:
        # The player to move cannot move: the previous player took the last.
        return -1 if self.mover == 0 else 1

    def move_name(self, move: tuple[int, int]) -> str:
        return f"{move[1]}from{move[0]}"

    def __str__(self) -> str:
        return "-".join(map(str, self.heaps))
