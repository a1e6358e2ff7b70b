"""Certificates and their independent checker (standard library only; imports nothing from solver/).

``baccarat-check FILE`` or ``python -m proofs.check FILE`` runs :func:`proofs.check.main`.
"""
