"""Friends' rooms: two to four people play one match, the AI in the empty seats.

- ``room``: a room (code, settings, seats, the match) and its save;
- ``actions``: what people and the AI do in it, checked, as changes of a ``Room``;
- ``seat_view``: what each seat and each spectator may see (every push and answer goes through it);
- ``store``: the rooms' rows in the game store's database (compare-and-set, the driver's lease);
- ``hub``: this process's rooms: changes, sockets and pushes, the driver of the rooms it owns.
"""
