"""Plugin modules live here; importing the subpackage imports none of them."""
