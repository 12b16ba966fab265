module github.com/seen-bloom/seen/bindings/go

go 1.20
