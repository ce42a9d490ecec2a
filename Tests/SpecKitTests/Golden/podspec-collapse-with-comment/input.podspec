Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Core', '>= 1.0', # lower bound
                       '< 2.0'   # upper bound
end
