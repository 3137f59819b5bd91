"""The lobby and the requests that make tables: the public list, quick match, creation and rematches."""
