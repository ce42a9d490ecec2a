# A minimal stand-in for the Podfile DSL: evaluates a Podfile and prints its `pod` lines as JSON.
require 'json'

PODS = []

def pod(name, *requirements)
  options = requirements.last.is_a?(Hash) ? requirements.pop : {}
  PODS << { 'name' => name, 'requirements' => requirements.map(&:to_s), 'options' => options.keys.map(&:to_s) }
end

def target(_name, *_options)
  yield if block_given?
end

def abstract_target(_name)
  yield if block_given?
end

%w[source platform use_frameworks! inhibit_all_warnings! inherit! project workspace install! post_install pre_install
   use_modular_headers!].each do |name|
  define_method(name) { |*_args, &_block| nil }
end

at_exit { puts JSON.generate(PODS) }
