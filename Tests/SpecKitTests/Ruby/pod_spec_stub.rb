# A minimal stand-in for CocoaPods' Pod::Spec DSL: evaluates a podspec and prints the
# dependencies it declares as JSON, so tests can check what a rewritten podspec means.
require 'json'

module Pod
  # Any value a podspec may read back (`s.version.to_s`, `s.name`, unknown attributes).
  class Anything
    def method_missing(*_args)
      self
    end

    def respond_to_missing?(*_args)
      true
    end

    def to_s
      ''
    end
    alias to_str to_s
  end

  class Spec
    RECORDED = []

    attr_reader :spec_path

    def initialize(parent = nil, name = nil)
      @attributes = {}
      @spec_path = parent.nil? ? '' : [parent.spec_path, name].reject { |part| part.nil? || part.empty? }.join('/')
      yield self if block_given?
    end

    def dependency(name, *requirements)
      record(name, requirements, nil)
    end

    def record(name, requirements, platform)
      options = requirements.last.is_a?(Hash) ? requirements.pop : {}
      RECORDED << {
        'name' => name,
        'requirements' => requirements.map(&:to_s),
        'spec' => @spec_path,
        'platform' => platform,
        'options' => options.keys.map(&:to_s)
      }
    end

    def subspec(name, &block)
      Spec.new(self, name, &block)
    end

    def test_spec(name = 'Tests', &block)
      Spec.new(self, name, &block)
    end

    def app_spec(name = 'App', &block)
      Spec.new(self, name, &block)
    end

    %w[ios osx macos tvos watchos visionos].each do |platform|
      define_method(platform) { PlatformProxy.new(self, platform) }
    end

    def method_missing(name, *args)
      key = name.to_s
      if key.end_with?('=')
        @attributes[key.chomp('=')] = args.first
      elsif @attributes.key?(key)
        @attributes[key]
      else
        Anything.new
      end
    end

    def respond_to_missing?(*_args)
      true
    end
  end

  # `s.ios`, `s.osx`, …: records platform-specific dependencies and ignores everything else.
  class PlatformProxy
    def initialize(spec, platform)
      @spec = spec
      @platform = platform
    end

    def dependency(name, *requirements)
      @spec.record(name, requirements, @platform)
    end

    def method_missing(*_args)
      Anything.new
    end

    def respond_to_missing?(*_args)
      true
    end
  end
end

at_exit { puts JSON.generate(Pod::Spec::RECORDED) }
