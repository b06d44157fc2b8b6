"""The dice sets' trays and descriptions, known without loading the dice.

Registering the plugin's generators and building ``lacak boggle shake --dice``
need the names of :data:`lacak_boggle.dice.DICE_SETS` on every start of
``lacak``; they are repeated here (a test keeps the two in step) so that
neither loads :mod:`lacak_boggle.dice`. A leaf: it imports nothing.
"""

from __future__ import annotations

__all__ = ["DICE_INFO"]

#: Dice set name -> (rows, columns, description), as :data:`lacak_boggle.dice.DICE_SETS`
#: has them.
DICE_INFO = {
    "classic4": (4, 4, "4x4 Boggle: shake the 1987 'New Boggle' dice"),
    "classic4-1976": (4, 4, "4x4 Boggle: shake the original (1976-1986) dice"),
    "big5": (5, 5, "5x5 Big Boggle: shake the original dice"),
    "superbig6": (6, 6, "6x6 Super Big Boggle: shake the dice (digraph and blank faces)"),
}
