Pod::Spec.new do |s|
  s.name = 'Payments'
  s.ios.deployment_target = '13.0'
  s.ios.dependency 'Core', '~> 1.0'
  s.osx.dependency 'Core'
  s.tvos.dependency "Net", ">= 2.0"
  s.watchos.dependency('Net')
end
