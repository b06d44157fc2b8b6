"""The sliding-puzzle fast paths: strategies that know the board.

- :mod:`~lacak_sliding.tiles.encoding`: a whole board as one Python int, and the
  checks every strategy here makes;
- :mod:`~lacak_sliding.tiles.astar`: ``astar-tiles``, A* on encoded boards with
  incremental heuristics and a bucket queue;
- :mod:`~lacak_sliding.tiles.bfs`: ``bfs-tiles``, breadth-first on encoded boards;
- :mod:`lacak_sliding.tiles.idastar`: ``idastar-tiles``, IDA* on one mutable board,
  its engines (generated Python, linear conflict, the explicit stack, numba) and the
  search split across workers.

Nothing is imported here: the plugin's hooks import each strategy's module when it is
registered.
"""
