"""One small module per phase of a round: what may be done now, and doing it.

The phases never choose what comes next; `rules.board.flow` does, and is the only place
where the phase changes.
"""
