"""Certificates and their independent checker (standard library only; imports nothing from solver/).

In a checkout this folder is ``proofs/``; installed, it is the package ``baccarat_proofs`` (setup.py),
with the committed certificates as its data. ``baccarat-check FILE``, ``python3 proofs/check.py FILE`` or
``python -m baccarat_proofs.check FILE`` runs :func:`check.main`.
"""
