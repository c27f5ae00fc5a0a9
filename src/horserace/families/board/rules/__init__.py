"""The dice board game's rules: Classic, Advanced, Northwoods and the house rules as options of one
`BoardRules`, one flow and one money path (see docs/architecture.md)."""
