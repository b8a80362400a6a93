"""The conformance suite: every registered title (and the reference title) checked against the contract."""
