"""lacak_graph: route finding on a weighted graph (AIMA's Romania map shipped)."""
