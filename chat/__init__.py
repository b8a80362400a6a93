"""Chat beside the board (issue 49, section 2): per match, the seats' channel and the spectators' channel."""
