import click


@click.group()
def sliding():
    """Sliding-tile puzzles."""
