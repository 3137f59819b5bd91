"""Research interfaces (issue 14; docs/research.md): observation tensors from a seat's view,
a PettingZoo environment and OpenSpiel games.  An optional extra: ``pip install
'trumps[envs]'`` (PettingZoo) or ``'trumps[openspiel]'``; nothing else in trumps imports
this package."""
