"""The rules as data: drawing tableaux (:mod:`.tableau`) and the rule sheets of houses (:mod:`.house`).

A tableau maps the banker's total and what he saw (the player's third card, or that the player
stood) to draw, stand or free; punto banco's is fixed, chemin de fer's leaves the seed's free cells
(docs/design.md, "Rules").
"""
