"""The card race's rules: Basic, Scarne, the betting styles (book, tote, party) and the Calcutta
auction as options of one `CardsRules`."""
