"""The package's version, in the lowest layer so that any module may write it (JSON's ``tool``, the par
sheet's cover, the table's log) without importing the front door. Versions are tagged ``vX.Y.Z`` in
git and CHANGELOG.md says what each changed for users."""

__version__ = "0.4.0"
