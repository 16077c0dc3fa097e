"""Talking to forums: the adapter interface (adapter), the one door to the adapters (registry), the HTTP
transport the HTML and API adapters share (transport, its settings, the decoded page, the depth-tolerant page
parser), the retry of a forum call, and the unreadable-post record adapters hand back.

May import: the pure core (model, errors, markup, options); the registry alone imports `adapters`, by name on first
use. The `adapters` package imports only this package's interface modules (adapter, transport, transport_settings,
http_page, htmlparse, unreadable).
"""
