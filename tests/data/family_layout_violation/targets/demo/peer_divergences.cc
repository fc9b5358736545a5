// A file name outside the template, in another namespace.
namespace serdiff::targets::demo_peers {
}  // namespace serdiff::targets::demo_peers
