"""``python -m lacak`` runs the command line."""

from .cli import main

main()
