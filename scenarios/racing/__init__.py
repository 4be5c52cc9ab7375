"""Racing scenarios (grid, opponents, track): arrive with the racing domain."""
