// A family folder that breaks the template (the test family_layout_refuses_a_violation).
namespace serdiff::targets::demo {
}  // namespace serdiff::targets::demo
SERDIFF_REGISTER_FAMILY("demo", RegisterDemoTargets);
