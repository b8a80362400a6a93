"""Adapters that expose Firebreak titles to learning ecosystems (PettingZoo, OpenSpiel): `pip install firebreak[rl]`.

They speak only the encoded contract (domain.contract.EncodedTitle / EncodedMatch) and list the titles through
domain.titles.encoded_titles(), so a title joins them by providing that contract.
"""
