import StoreRecon

print("storerecon: under construction")
