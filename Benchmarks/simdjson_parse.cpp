// The parse ceiling for loading a catalog: simdjson reads the file and parses all of it into its
// DOM (every string unescaped, every number converted), then counts the products. Nothing is
// validated or indexed, so no loader that keeps the catalog's meaning can be faster than this.
//
//   g++ -O2 -o simdjson_parse Benchmarks/simdjson_parse.cpp -lsimdjson   (Debian: libsimdjson-dev)
#include <cstdio>
#include <simdjson.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: simdjson_parse FILE\n");
    return 2;
  }
  simdjson::padded_string json;
  if (auto error = simdjson::padded_string::load(argv[1]).get(json)) {
    std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(error));
    return 1;
  }
  simdjson::dom::parser parser;
  simdjson::dom::array products;
  if (auto error = parser.parse(json)["products"].get_array().get(products)) {
    std::fprintf(stderr, "%s: %s\n", argv[1], simdjson::error_message(error));
    return 1;
  }
  std::printf("%zu products\n", products.size());
  return 0;
}
