module seen.local/seen

go 1.20
